import { linesMatching } from '../evidence.js'
import { PIP_FAMILY } from '../tool-families.js'
import type { Facts, NormalizedFailure, Rule } from '../types.js'

// pip's resolver (20.3+): "Cannot install a and b because these package versions have conflicting dependencies"
// and "ResolutionImpossible"; pdm shares resolvelib's wording. The legacy resolver said "... has requirement
// x, but you'll have y which is incompatible"; a request that conflicts with itself is "Double requirement given"
// (legacy/resolver.py).
const CONFLICT = /ResolutionImpossible|conflicting dependencies|The conflict is caused by|has requirement [^\n]{1,200}, but you'll have|source of the following dependency conflicts|Unable to find a resolution|Double requirement given: /
const REQUESTED = /The user requested (?:\(constraint\) )?([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?(\S*)/g

/**
 * The one package a conflict is about, when only the person's own requests for it (constraints included) conflict and
 * they pin at most one version: `demo-pkg` and `(constraint) demo-pkg==1.0` cannot conflict unless the index listed
 * no 1.0, which is what pip says when the index page failed. The retry loop asks the index (src/retry/probe.ts).
 */
function soleRequested(failure: NormalizedFailure): Facts {
  if (/ depends on /.test(failure.text)) return {}
  const requests = [...failure.text.matchAll(REQUESTED)].map(match => ({ name: match[1]!.toLowerCase().replace(/[-_.]+/g, '-'), spec: match[2]! }))
  const names = new Set(requests.map(request => request.name))
  const pins = new Set(requests.map(request => request.spec).filter(Boolean))
  if (names.size !== 1 || pins.size > 1) return {}
  const pin = [...pins][0]
  if (pin !== undefined && !/^==[^=<>~!,;*]+$/.test(pin)) return {}
  return { package: [...names][0], ...(pin && { version: pin.slice(2) }) }
}

export const pipResolutionImpossible = {
  id: 'pip-resolution-impossible',
  category: 'resolution_conflict',
  tools: [...PIP_FAMILY, 'pdm'],
  summary: 'The requested versions conflict: no set of packages satisfies every requirement',
  match: failure => {
    const evidence = linesMatching(failure, CONFLICT, 2)
    return evidence.length ? { evidence: [...evidence, ...linesMatching(failure, / depends on | requested /, 2)].slice(0, 4), facts: soleRequested(failure) } : null
  },
} satisfies Rule
