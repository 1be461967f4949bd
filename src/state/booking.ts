import type { Diagnosis } from '../diagnose/types.js'
import { blamedHost } from '../plan/blame.js'
import type { Host } from '../plan/types.js'
import { countsAgainstSource } from './breaker.js'

/** What one attempt tells about the hosts it contacted: it worked, it failed with a diagnosis, or it was stopped. */
export interface AttemptOutcome {
  ok: boolean
  diagnosis: Diagnosis | null
}

/** One line of the health record: an outcome for the host booked under `key`. */
export interface Booking {
  key: string
  host: string
  ok: boolean
  category?: string
}

/**
 * `book(outcome, hostsContacted)`: what one attempt writes into the health record. A success vouches for every host
 * it contacted; a failure counts only against the host it is about, and only when it says something about that host
 * from here (a timeout, a 5xx...; not a missing package, a proxy, a build). An interrupted attempt books nothing.
 */
export function bookingsFor(outcome: AttemptOutcome, hosts: readonly Host[]): Booking[] {
  if (outcome.ok) return [...new Map(hosts.map(host => [host.key, { key: host.key, host: host.host, ok: true }])).values()]
  const category = outcome.diagnosis?.category
  if (!category || !countsAgainstSource(category)) return []
  const blamed = blamedHost(outcome.diagnosis!, hosts)
  return blamed ? [{ key: blamed.key, host: blamed.host, ok: false, category }] : []
}

/** Why a relay request failed on a host (src/relay/types.ts FailureKind), as the health record's categories. */
const RELAY_CATEGORIES: Record<string, string> = {
  connect: 'connection', reset: 'connection', truncated: 'connection', timeout: 'timeout', 'server-error': 'server_error',
  'rate-limited': 'rate_limited', refused: 'http_auth', 'hash-mismatch': 'hash_mismatch',
}

/**
 * What one attempt through the relay tells about each host behind it, from the relay's own count of that attempt's
 * requests: a failure for a host that failed any (its most frequent cause; a file it lacks is not one), else a
 * success for a host that served something. Each host is booked on its own requests, never on the attempt's fate.
 */
export function relayBookings(hosts: readonly { key: string; host: string; served: number; failures: Partial<Record<string, number>> }[]): Booking[] {
  return hosts.flatMap(({ key, host, served, failures }): Booking[] => {
    const counted = Object.entries(failures).filter(([kind, count]) => RELAY_CATEGORIES[kind] && count).sort((a, b) => b[1]! - a[1]!)
    if (counted.length) return [{ key, host, ok: false, category: RELAY_CATEGORIES[counted[0]![0]]! }]
    return served > 0 ? [{ key, host, ok: true }] : []
  })
}
