import { linesMatching } from '../evidence.js'
import { PIP_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// pip's resolver (20.3+): "Cannot install a and b because these package versions have conflicting dependencies"
// and "ResolutionImpossible"; pdm shares resolvelib's wording. The legacy resolver said "... has requirement
// x, but you'll have y which is incompatible"; a request that conflicts with itself is "Double requirement given"
// (legacy/resolver.py).
const CONFLICT = /ResolutionImpossible|conflicting dependencies|The conflict is caused by|has requirement [^\n]{1,200}, but you'll have|source of the following dependency conflicts|Unable to find a resolution|Double requirement given: /

export const pipResolutionImpossible = {
  id: 'pip-resolution-impossible',
  category: 'resolution_conflict',
  tools: [...PIP_FAMILY, 'pdm'],
  summary: 'The requested versions conflict: no set of packages satisfies every requirement',
  match: failure => {
    const evidence = linesMatching(failure, CONFLICT, 2)
    return evidence.length ? { evidence: [...evidence, ...linesMatching(failure, / depends on | requested /, 2)].slice(0, 4) } : null
  },
} satisfies Rule
