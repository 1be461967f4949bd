import type { FailureKind, HostTally, RelayEvent } from './types.js'

const empty = (): HostTally => ({ requests: 0, served: 0, bytes: 0, failovers: 0, resumedBytes: 0, hedged: 0, failures: {} })

/**
 * Every request's outcome, booked against the host that gave it: what --report, the run log and the health record
 * read after the run (`tally()`), and the events a terminal shows as they happen.
 */
export class Ledger {
  private readonly hosts = new Map<string, HostTally>()
  /** Running totals over every host, read about once a second by the attempt's progress watch. */
  readonly totals = { bytes: 0, requests: 0, open: 0 }

  constructor(private readonly onEvent: (event: RelayEvent) => void = () => {}) {}

  private of(host: string): HostTally {
    let tally = this.hosts.get(host)
    if (!tally) this.hosts.set(host, tally = empty())
    return tally
  }

  requested(host: string): void {
    this.of(host).requests++
  }

  failed(host: string, kind: FailureKind): void {
    const failures = this.of(host).failures
    failures[kind] = (failures[kind] ?? 0) + 1
  }

  hedged(host: string): void {
    this.of(host).hedged++
  }

  /** A request that `from` did not serve in the end: `to` did (a failure, or a faster answer). */
  failedOver(path: string, from: string, to: string, why: FailureKind | 'slow'): void {
    this.of(from).failovers++
    this.onEvent({ kind: 'failover', path, from, to, why })
  }

  served(host: string): void {
    this.of(host).served++
    this.totals.requests++
  }

  bytes(host: string, count: number, resumed: boolean): void {
    const tally = this.of(host)
    tally.bytes += count
    this.totals.bytes += count
    if (resumed) tally.resumedBytes += count
  }

  event(event: RelayEvent): void {
    this.onEvent(event)
  }

  private readonly toldWaiting = new Set<string>()

  /** `host` asked to be asked again in `ms` (a 429's Retry-After) and will be: told the first time for each host. */
  waiting(path: string, host: string, ms: number): void {
    if (this.toldWaiting.has(host)) return
    this.toldWaiting.add(host)
    this.onEvent({ kind: 'waiting', path, source: host, ms })
  }

  /** A copy of the numbers so far, per host. */
  tally(): Record<string, HostTally> {
    return Object.fromEntries([...this.hosts].map(([host, tally]) => [host, { ...tally, failures: { ...tally.failures } }]))
  }
}
