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
