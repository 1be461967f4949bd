import { messages } from './types.js'

// yarn berry prints `➤ YN<code>: <message>` (normalisation keeps the code, drops the decorations). Read in the
// published bundle of @yarnpkg/cli-dist 4.18.1 (bin/yarn.js), built from this file.
const CACHE = { repo: 'yarnpkg/berry', file: 'packages/yarnpkg-core/sources/Cache.ts (bundled in bin/yarn.js)', version: '4.18.1' }

export const YARN_BERRY = messages(CACHE, [
  ['yarn-checksum-mismatch', "YN0018: │ {package}@npm:{version}: The remote archive doesn't match the expected checksum"],
], '➤ ')
