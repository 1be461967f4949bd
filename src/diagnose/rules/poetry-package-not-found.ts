import { firstCapture, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// poetry add: "Could not find a matching version of package x" (no such package, or no such version); poetry lock
// (PubGrub): "Because app depends on x (^9) which doesn't match any versions, version solving failed." A 401 from
// the source ends with the same words: the status rules, earlier in RULES, read its "Authorization error" line.
export const poetryPackageNotFound = {
  id: 'poetry-package-not-found',
  category: 'package_not_found',
  tools: ['poetry'],
  summary: 'No release of the package matches the requirement',
  match: failure => {
    const evidence = linesMatching(failure, /Could not find a matching version of package |which doesn't match any versions/, 2)
    if (!evidence.length) return null
    const name = firstCapture(evidence, /version of package (\S+)|depends on ([\w.-]+) \([^)\n]{1,60}\) which doesn't match/)
    return { evidence, facts: { package: name, absence: 'listing' }, summary: name ? `No release of ${name} matches the requirement` : undefined }
  },
} satisfies Rule
