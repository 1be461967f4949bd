import { linesMatching } from '../evidence.js'
import { CONDA_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// conda's UnsatisfiableError, libmamba's "Encountered problems while solving" and "could not solve for
// environment specs", pixi's "Cannot solve the request": a conflict, once the missing-package and Python-pin rules
// (which read the same reports) have passed.
const UNSATISFIABLE = /UnsatisfiableError|Encountered problems while solving|Could not solve for environment specs|found (?:to be )?incompatible with each other|none of the providers can be installed|Cannot solve the request|conflicts with any installable versions|Found conflicts!/

export const condaUnsatisfiable = {
  id: 'conda-unsatisfiable',
  category: 'resolution_conflict',
  tools: CONDA_FAMILY,
  summary: 'The requested packages conflict: the solver found no consistent set',
  match: failure => {
    const evidence = linesMatching(failure, UNSATISFIABLE, 3)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
