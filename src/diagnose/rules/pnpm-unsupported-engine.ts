import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// pnpm enforces `engines` (node, and pnpm itself): "ERR_PNPM_UNSUPPORTED_ENGINE ... Expected version: >=18.17.0".
export const pnpmUnsupportedEngine = {
  id: 'pnpm-unsupported-engine',
  category: 'python_version',
  tools: ['pnpm'],
  summary: 'A package needs another Node.js (or pnpm) version',
  match: failure => {
    const evidence = linesMatching(failure, /ERR_PNPM_UNSUPPORTED_ENGINE|ERR_PNPM_BAD_PM_VERSION|Your (?:Node|pnpm) version is incompatible|^Expected version: /, 3)
    return evidence.length ? { evidence } : null
  },
  remedy: { kind: 'give-up', hint: 'Switch to the Node.js (or pnpm) version the package expects (nvm install <version>, corepack use pnpm@<version>), or pin an older release of the package.' },
} satisfies Rule
