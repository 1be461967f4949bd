import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// pdm (unearth/resolvelib), with -v: "Could not find any matching candidates." — the index listed candidates, none
// matching the requirement (e.g. only pre-releases exist), pdm/models/repositories.py. Its "Unable to find candidates
// for x" follows a 404 and a 429 alike, so it proves nothing: pip-nothing-listed reads it.
export const pdmNoMatchingCandidates = {
  id: 'pdm-no-matching-candidates',
  category: 'package_not_found',
  tools: ['pdm'],
  summary: 'The index lists the package, but no release matching the requirement',
  match: failure => {
    const evidence = linesMatching(failure, /Could not find any matching candidates/, 2)
    return evidence.length ? { evidence, facts: { absence: 'listing' } } : null
  },
} satisfies Rule
