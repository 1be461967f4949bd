import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// pnpm enforces `engines` (node, and pnpm itself): "ERR_PNPM_UNSUPPORTED_ENGINE ... Expected version: >=18.17.0", and
// the project's `packageManager` pin: "This project is configured to use v9.0.0 of pnpm. Your current pnpm is v10.34.9".
export const pnpmUnsupportedEngine = {
  id: 'pnpm-unsupported-engine',
  category: 'python_version',
  tools: ['pnpm'],
  summary: 'A package needs another Node.js (or pnpm) version',
  match: failure => {
    const evidence = linesMatching(failure, /ERR_PNPM_UNSUPPORTED_ENGINE|This project is configured to use v\S+ of pnpm|Your (?:Node|pnpm) version is incompatible|^Expected version: /, 3)
    return evidence.length ? { evidence } : null
  },
  remedy: { kind: 'give-up', hint: 'Switch to the Node.js (or pnpm) version the package expects (nvm install <version>, corepack use pnpm@<version>), or pin an older release of the package.' },
} satisfies Rule
