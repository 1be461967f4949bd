import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// npm with engine-strict (EBADENGINE, older ENOTSUP "Unsupported engine"); bun prints a similar engines warning.
export const npmUnsupportedEngine = {
  id: 'npm-unsupported-engine',
  category: 'python_version',
  tools: ['npm', 'bun'],
  summary: 'A package needs another Node.js version',
  match: failure => {
    const evidence = linesMatching(failure, /\bEBADENGINE\b|Unsupported engine for|Not compatible with your version of node/, 2)
    return evidence.length ? { evidence } : null
  },
  remedy: { kind: 'give-up', hint: 'Switch to the Node.js version the package expects (nvm install <version>), or pin an older release of the package.' },
} satisfies Rule
