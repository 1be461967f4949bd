import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// pdm (unearth/resolvelib): "Could not find any matching candidates" — e.g. only pre-releases exist, or a typo.
export const pdmNoMatchingCandidates = {
  id: 'pdm-no-matching-candidates',
  category: 'package_not_found',
  tools: ['pdm'],
  summary: 'No release of the package matches the requirement',
  match: failure => {
    const evidence = linesMatching(failure, /Could not find any matching candidates|Unable to find candidates for /, 2)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
