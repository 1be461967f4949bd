import { linesMatching } from '../evidence.js'
import { PIP_FAMILY } from '../tool-families.js'
import type { NormalizedFailure, Rule } from '../types.js'

// "Could not find a version that satisfies the requirement x==2.0 (from versions: 1.0, 1.1)": the index listed the
// package, without the version asked for (pip resolvelib/factory.py). That listing is the proof a missing package
// needs. "(from versions: none)" is none: pip words a 404 and a 401, 403, 429 or 5xx of the page alike, logging the
// status at debug level only (index/collector.py, _handle_get_simple_fail); pip-nothing-listed reads it. The timeout,
// DNS, TLS, proxy and status rules come first in RULES and read the retry lines above it.
const NOT_FOUND = /Could not find a version that satisfies the requirement (\S+)/

function versionsListed(failure: NormalizedFailure): string[] {
  const listed = /\(from versions: ([^)]{0,4000})\)/.exec(failure.text)?.[1]?.trim()
  return listed && listed !== 'none' ? listed.split(/,\s*/).filter(Boolean) : []
}

export const pipNoMatchingDistribution = {
  id: 'pip-no-matching-distribution',
  category: 'package_not_found',
  tools: PIP_FAMILY,
  summary: 'The index lists the package, but no version matching the requirement',
  match: failure => {
    const versionsAvailable = versionsListed(failure)
    const evidence = versionsAvailable.length ? linesMatching(failure, NOT_FOUND) : []
    if (!evidence.length) return null
    const spec = (NOT_FOUND.exec(evidence[0]!)?.[1] ?? '').replace(/[,;]$/, '')
    const name = /^[A-Za-z0-9][A-Za-z0-9._-]*/.exec(spec)?.[0]
    return {
      evidence,
      facts: { package: name, version: /==\s*([^\s,;]+)/.exec(spec)?.[1], versionsAvailable, absence: 'listing' },
      summary: name ? `The index lists ${name}, but no version matching ${spec} (it lists ${versionsAvailable.slice(-3).join(', ')})` : undefined,
    }
  },
} satisfies Rule
