import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// npm 7+ peer-dependency conflicts (ERESOLVE); pnpm's strict-peer-dependencies failure says the same.
export const npmEresolve = {
  id: 'npm-eresolve',
  category: 'resolution_conflict',
  tools: ['npm', 'pnpm', 'bun'],
  summary: 'Peer dependencies conflict: npm cannot build a consistent tree',
  match: failure => {
    const evidence = linesMatching(failure, /\bERESOLVE\b|unable to resolve dependency tree|Could not resolve dependency:|ERR_PNPM_PEER_DEP_ISSUES|Conflicting peer dependency/, 3)
    return evidence.length ? { evidence } : null
  },
  remedy: { kind: 'give-up', hint: 'Align the versions named above (upgrade the package that peers on the other), or install with --legacy-peer-deps if you accept an unchecked tree.' },
} satisfies Rule
