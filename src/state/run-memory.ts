import type { Host, LearnedChoice, Source, StateSnapshot } from '../plan/types.js'
import type { BreakerSettings } from './breaker.js'
import { breakerVerdict } from './breaker.js'
import { bookingsFor, type AttemptOutcome, type Booking } from './booking.js'
import { addFix, addOutcomes, healthOf } from './health.js'
import { currentNetwork, type NetworkIdentity } from './network.js'
import { stateFile } from '../paths.js'
import { emptyState, type State } from './schema.js'
import { readState, updateState } from './store.js'
import { labelOf } from '../url.js'

export interface RunMemoryOptions {
  env: NodeJS.ProcessEnv
  breaker: BreakerSettings
  /** The adapter's name (`pip`), so that what was learned with `pip3` applies to `pip`. */
  tool: string
  /** Shown with --verbose. */
  verbose(message: string): void
  warn(message: string): void
  now?: () => number
  network?: NetworkIdentity
}


/**
 * What resilient remembers across runs, as one run uses it: a snapshot read once before the plan is ranked, and
 * `book(outcome, hostsContacted)` after every attempt (written as it happens, so parallel runs see each other; a
 * success after failures also records what fixed what). Never fails a run: when the state cannot be read or written,
 * the run goes on without it.
 */
export class RunMemory {
  private pending: Promise<unknown> = Promise.resolve()
  private readonly failures: Booking[] = []
  private readonly now: () => number

  private constructor(private readonly options: RunMemoryOptions, private readonly file: string | undefined,
    private readonly state: State, readonly network: NetworkIdentity) {
    this.now = options.now ?? Date.now
  }

  static async open(options: RunMemoryOptions): Promise<RunMemory> {
    const file = stateFile(options.env)
    const network = options.network ?? currentNetwork(options.env)
    try {
      return new RunMemory(options, file, await readState(file, options.warn), network)
    } catch (error) {
      options.verbose(`mirror health is unavailable (${(error as Error).message}): nothing is remembered in this run`)
      return new RunMemory(options, undefined, emptyState(), network)
    }
  }

  /** The state as rankSources reads it: health per key from this network, fixes learned for this tool. */
  snapshot(): StateSnapshot {
    const now = this.now()
    const learned: LearnedChoice[] = Object.values(this.state.fixes).filter(fix => fix.tool === this.options.tool).sort((a, b) => b.at - a.at)
      .map(fix => ({ category: fix.category, failingHost: fix.failingHost, key: fix.url, sourceId: fix.sourceId }))
    return {
      healthOf: key => {
        const health = healthOf(this.state, this.network, key)
        return { verdict: breakerVerdict(health, now, this.options.breaker), consecutiveFailures: health?.consecutiveFailures ?? 0, lastFailureAt: health?.lastFailureAt }
      },
      learned,
      network: this.network.label,
    }
  }

  /** One attempt's outcome, booked against the hosts it contacted (state/booking.ts). Returns what was booked. */
  book(outcome: AttemptOutcome & { source: Source }, hosts: readonly Host[]): Booking[] {
    const at = this.now()
    const bookings = bookingsFor(outcome, hosts)
    if (bookings.length) this.change(state => addOutcomes(state, this.network, bookings.map(({ key, ok, category }) => ({ url: key, outcome: { at, ok, category, via: 'run' as const } }))))
    if (!outcome.ok) this.failures.push(...bookings)
    const winner = outcome.ok ? hosts.find(host => host.role === 'index') : undefined
    // One fix per failing host and cause, however many attempts it took there.
    const fixes = winner ? [...new Map(this.failures.filter(failure => failure.key !== winner.key).map(failure => [`${failure.key} ${failure.category}`, failure])).values()] : []
    if (winner && fixes.length) {
      const sourceId = outcome.source.kind === 'mirror' ? outcome.source.id : outcome.source.label
      this.change(state => fixes.forEach(failure => addFix(state, { tool: this.options.tool, category: failure.category!, failingHost: labelOf(failure.key),
        url: winner.key, sourceId, remedy: 'switch-mirror', at })))
    }
    return bookings
  }

  /** Outcomes already known per host (the relay's, src/state/booking.ts relayBookings), written as they are. */
  bookEach(bookings: readonly Booking[]): void {
    const at = this.now()
    if (bookings.length) this.change(state => addOutcomes(state, this.network, bookings.map(({ key, ok, category }) => ({ url: key, outcome: { at, ok, category, via: 'run' as const } }))))
  }

  /** Waits until everything is written. */
  async finish(): Promise<void> {
    await this.pending
  }

  /** True the first time `key` is asked for, from any process; remembered in the state. */
  async firstTime(key: string): Promise<boolean> {
    if (!this.file) return true
    if (this.state.notices[key]) return false
    let first = false
    this.change(state => {
      first = !state.notices[key]
      state.notices[key] = this.now()
    })
    await this.pending
    return first
  }

  private change(edit: (state: State) => void): void {
    const file = this.file
    if (!file) return
    this.pending = this.pending
      .then(() => updateState(file, edit, this.options.warn))
      .catch(error => this.options.verbose(`could not update mirror health: ${(error as Error).message}`))
  }
}
