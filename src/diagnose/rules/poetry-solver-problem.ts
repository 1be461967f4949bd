import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// poetry's solver: "Because app depends on both pytest (^5.4.3) and pytest (^7.1.2), version solving failed."
export const poetrySolverProblem = {
  id: 'poetry-solver-problem',
  category: 'resolution_conflict',
  tools: ['poetry'],
  summary: 'The requirements conflict: version solving failed',
  match: failure => {
    const evidence = linesMatching(failure, /version solving failed|SolverProblemError/, 2)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
