import { linesMatching } from '../evidence.js'
import { UV_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// uv's PubGrub report. Missing packages, missing versions and Python ranges are read by the rules before this one;
// what is left is a conflict between requirements.
export const uvNoSolution = {
  id: 'uv-no-solution',
  category: 'resolution_conflict',
  tools: UV_FAMILY,
  summary: 'The requirements conflict: no set of versions satisfies them all',
  match: failure => {
    const evidence = linesMatching(failure, /No solution found when resolving|requirements are unsatisfiable|we can conclude that [^\n]{1,200} cannot be used/, 2)
    return evidence.length ? { evidence: [...evidence, ...linesMatching(failure, /Because [^\n]{1,300} depends on /, 1)].slice(0, 3) } : null
  },
} satisfies Rule
