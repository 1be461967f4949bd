import { firstCapture, linesMatching } from '../evidence.js'
import { UV_FAMILY } from '../tool-families.js'
import type { NormalizedFailure, Rule } from '../types.js'

// uv words a missing package or version as a resolver failure. These forms say the index lacks what was asked:
// "X was not found in the package registry", "there is no version of X==1.2", and "only the following versions of
// X are available ... and you require X" (the user's own requirement, not another package's, is unmet).
// "No compatible version found for: X" is the same seen in --verbose logs.
const MISSING = /was not found in the (?:package registry|provided package locations)|there (?:is no version|are no versions) of \S|No compatible version found for: |not found in the package registry/

/** "only the following versions of X are available:" followed, after the list, by the user's own requirement. */
function onlyVersionsOfRequired(failure: NormalizedFailure): string | undefined {
  const text = failure.text
  const start = text.indexOf('only the following versions of ')
  if (start < 0) return undefined
  const name = /^only the following versions of (\S+) are available/.exec(text.slice(start, start + 300))?.[1]
  if (!name) return undefined
  const rest = text.slice(start, start + 20_000)
  const requiredAt = rest.search(/\band (?:you require|your project depends on|your requirements?)\b/)
  const dependedAt = rest.search(/\band \S+ depends on\b/)
  return requiredAt >= 0 && (dependedAt < 0 || requiredAt < dependedAt) ? name : undefined
}

export const uvPackageNotFound = {
  id: 'uv-package-not-found',
  category: 'package_not_found',
  tools: UV_FAMILY,
  summary: 'The package, or the requested version, is not on the index',
  match: failure => {
    const evidence = linesMatching(failure, MISSING, 2)
    const onlyOf = evidence.length ? undefined : onlyVersionsOfRequired(failure)
    if (!evidence.length && !onlyOf) return null
    if (onlyOf) evidence.push(...linesMatching(failure, /only the following versions of /, 1))
    const name = onlyOf ?? firstCapture(evidence, /Because (\S+) was not found|there (?:is no version|are no versions) of ([\w.-]+)|version found for: (\S+)/)
    return { evidence, facts: { package: name, absence: 'listing' }, summary: name ? `${name} (or the requested version of it) is not on the index` : undefined }
  },
} satisfies Rule
