import { firstCapture, linesMatching } from '../evidence.js'
import { YARN_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// yarn classic: `Couldn't find any versions for "x" that matches "^9"`, `Package "x" not found`; yarn berry
// YN0082 "No candidates found"; and yarn classic's "Error: <url>: Not found", the npm registry's 404 body
// (`{"error":"Not found"}`) that src/util/request-manager.js rejects with.
const MISSING = /Couldn't find any versions for "|Couldn't find package "|\bYN0082: |No candidates found|\bError: https?:\/\/\S{1,500}: Not found$/

export const yarnNoMatchingVersion = {
  id: 'yarn-no-matching-version',
  category: 'package_not_found',
  tools: YARN_FAMILY,
  summary: 'The registry has no matching version of the package',
  match: failure => {
    const evidence = linesMatching(failure, MISSING, 2)
    if (!evidence.length) return null
    const name = firstCapture(evidence, /versions for "([^"]{1,200})"|package "([^"]{1,200})"/)
    return { evidence, facts: { package: name, absence: 'listing' }, summary: name ? `The registry has no matching version of ${name}` : undefined }
  },
} satisfies Rule
