import { firstCapture, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// go: "no matching versions for query \"latest\"", "invalid version: unknown revision v9.9.9": the module proxy (or
// the origin) has no such version. A 404/410 from the proxy is read by any-http-not-found.
export const goNoMatchingVersions = {
  id: 'go-no-matching-versions',
  category: 'package_not_found',
  tools: ['go'],
  summary: 'The module proxy has no matching version of the module',
  match: failure => {
    const evidence = linesMatching(failure, /no matching versions for query|unknown revision|invalid version: |cannot find module providing package/, 2)
    if (!evidence.length) return null
    const module = firstCapture(evidence, /^go: (?:module )?([\w.\-/]{1,300}?)(?:@[^:\s]{1,100})?: /)
    return { evidence, facts: { package: module, absence: 'listing' }, summary: module ? `The module proxy has no matching version of ${module}` : undefined }
  },
} satisfies Rule
