import { firstCapture, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// cargo: "no matching package named `x` found", and "failed to select a version for the requirement `x = "^9"`"
// with "candidate versions found which didn't match" (the crate exists, not that version). A conflict between
// crates says "failed to select a version for `x` which could resolve this conflict" instead.
export const cargoNoMatchingPackage = {
  id: 'cargo-no-matching-package',
  category: 'package_not_found',
  tools: ['cargo'],
  summary: 'The registry has no such crate, or no version of it matching the requirement',
  match: failure => {
    const evidence = linesMatching(failure, /no matching package named `|failed to select a version for the requirement `|candidate versions found which didn't match/, 2)
    if (!evidence.length) return null
    const name = firstCapture(evidence, /package named `([^`]{1,100})`|requirement `([\w-]{1,100})/)
    return { evidence, facts: { package: name, absence: 'listing' }, summary: name ? `The registry has no crate ${name} matching the requirement` : undefined }
  },
} satisfies Rule
