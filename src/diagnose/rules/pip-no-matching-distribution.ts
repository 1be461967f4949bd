import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// pip ends *every* index failure with "No matching distribution found"; rules for timeouts, DNS, TLS, proxies and
// status codes come first in RULES, so reaching this one means the output shows no network trouble. Even then
// "(from versions: none)" may hide a 401/403/429/5xx on the index page (pip logs nothing for those), so the retry
// loop asks the index itself before calling the package missing.
const NOT_FOUND = /No matching distribution found for (\S+)|Could not find a version that satisfies the requirement (\S+)|No distributions at all found for (\S+)/i

export const pipNoMatchingDistribution = {
  id: 'pip-no-matching-distribution',
  category: 'package_not_found',
  tools: ['pip', 'pipx'],
  summary: 'No version of the package was found on the index',
  match: failure => {
    const evidence = linesMatching(failure, NOT_FOUND)
    if (!evidence.length) return null
    const requirement = evidence.map(line => NOT_FOUND.exec(line)).find(Boolean)
    const spec = (requirement?.[1] ?? requirement?.[2] ?? requirement?.[3] ?? '').replace(/[,;]$/, '')
    const name = /^[A-Za-z0-9][A-Za-z0-9._-]*/.exec(spec)?.[0]
    const versionsLine = /\(from versions: ([^)]*)\)/.exec(failure.text)?.[1]?.trim()
    const versionsAvailable = versionsLine && versionsLine !== 'none' ? versionsLine.split(/,\s*/) : []
    return {
      evidence,
      facts: { package: name, version: /==\s*([^\s,;]+)/.exec(spec)?.[1], versionsAvailable },
      summary: name ? `No matching version of ${spec} on the index${versionsAvailable.length ? ` (it lists ${versionsAvailable.slice(-3).join(', ')})` : ''}` : undefined,
    }
  },
} satisfies Rule
