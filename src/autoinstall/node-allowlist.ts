// npm packages that install without showing evidence first (with --yes, or after a default-yes prompt). For Node
// the import names the package, so the review is of the name itself: each of these was checked by hand against an
// npm name-list snapshot (2026-11) as the real, maintained package with tens of millions of downloads a month, none
// of them needing an install script. Any other name is only proposed, behind a prompt (docs/run.md).
export const NODE_ALLOWLIST: ReadonlySet<string> = new Set([
  'lodash', 'chalk', 'express', 'axios', 'commander', 'yargs', 'debug', 'uuid', 'dotenv', 'dayjs', 'moment', 'date-fns',
  'semver', 'glob', 'minimist', 'fs-extra', 'rimraf', 'mkdirp', 'ws', 'node-fetch', 'js-yaml', 'yaml', 'zod', 'ajv',
  'cors', 'body-parser', 'jsonwebtoken', 'bcryptjs', 'pg', 'mysql2', 'ioredis', 'redis', 'mongoose', 'react',
  'react-dom', 'vue', 'picocolors', 'kleur', 'ora', 'execa', 'nanoid', 'qs', 'cheerio', 'marked', 'cross-env',
])
