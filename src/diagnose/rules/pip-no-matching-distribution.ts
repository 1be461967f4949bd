import { linesMatching } from '../evidence.js'
import { PIP_FAMILY } from '../tool-families.js'
import type { NormalizedFailure, Rule } from '../types.js'

// pip ends *every* index failure with "No matching distribution found"; the timeout, DNS, TLS, proxy and status
// rules come first in RULES and read the retry lines above it, so reaching this one means the output shows no
// network trouble. Even then "(from versions: none)" may hide a 401/403/429/5xx on the index page (pip logs nothing
// for those): the retry loop asks the index itself (src/retry/probe.ts) before calling the package missing.
const NOT_FOUND = /No matching distribution found for (\S+)|Could not find a version that satisfies the requirement (\S+)|No distributions at all found for (\S+)|Could not find any downloads that satisfy the requirement (\S+)/

function versionsListed(failure: NormalizedFailure): string[] {
  const listed = /\(from versions: ([^)]{0,4000})\)/.exec(failure.text)?.[1]?.trim()
  return listed && listed !== 'none' ? listed.split(/,\s*/).filter(Boolean) : []
}

export const pipNoMatchingDistribution = {
  id: 'pip-no-matching-distribution',
  category: 'package_not_found',
  tools: PIP_FAMILY,
  summary: 'No version of the package was found on the index',
  match: failure => {
    const evidence = linesMatching(failure, NOT_FOUND)
    if (!evidence.length) return null
    const requirement = evidence.map(line => NOT_FOUND.exec(line)).find(Boolean)
    const spec = (requirement?.slice(1).find(Boolean) ?? '').replace(/[,;]$/, '')
    const name = /^[A-Za-z0-9][A-Za-z0-9._-]*/.exec(spec)?.[0]
    const versionsAvailable = versionsListed(failure)
    return {
      evidence,
      facts: { package: name, version: /==\s*([^\s,;]+)/.exec(spec)?.[1], versionsAvailable },
      summary: name ? `No matching version of ${spec} on the index${versionsAvailable.length ? ` (it lists ${versionsAvailable.slice(-3).join(', ')})` : ' (it lists none)'}` : undefined,
    }
  },
} satisfies Rule
