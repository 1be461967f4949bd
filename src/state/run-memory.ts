import type { BreakerSettings } from './breaker.js'
import { breakerVerdict, countsAgainstSource } from './breaker.js'
import { addFix, addOutcomes, fixesFor, healthOf } from './health.js'
import { currentNetwork, type NetworkIdentity } from './network.js'
import { arrangePlan, preferLearnedFix, sourceKey } from './order.js'
import { stateFile } from './paths.js'
import { emptyState, healthKey, type LearnedFix, type State } from './schema.js'
import { readState, updateState } from './store.js'
import type { AttemptRecord, RunResult, Source, SourcePlan } from '../retry/types.js'

export interface RunMemoryOptions {
  env: NodeJS.ProcessEnv
  breaker: BreakerSettings
  /** The adapter's name (`pip`), so that what was learned with `pip3` applies to `pip`. */
  tool: string
  /** Shown always (a skipped primary changes what the person sees). */
  note(message: string): void
  /** Shown with --verbose. */
  verbose(message: string): void
  warn(message: string): void
  now?: () => number
  network?: NetworkIdentity
}

const hostOf = (url: string) => new URL(url).host
const nameOf = (source: Source) => (source.kind === 'mirror' ? source.id : source.label)
const clock = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
const fixedLastTime = (fix: LearnedFix) => `${fix.sourceId} fixed this last time (${fix.category.replace(/_/g, ' ')} on ${fix.failingHost})`

/**
 * What resilient remembers across runs, as one run uses it: the order of the mirrors before the loop, the outcome of
 * every attempt (persisted as it happens, so parallel runs see each other), and what fixed what at the end.
 * Never fails a run: when the state cannot be read or written, the run goes on without it.
 */
export class RunMemory {
  private pending: Promise<unknown> = Promise.resolve()
  private readonly attempts: AttemptRecord[] = []
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

  /** The plan for this run: open breakers skipped without contact, the learned fix first. */
  arrange(plan: SourcePlan, pinned: readonly string[] = []): SourcePlan {
    const health = (source: Source) => {
      const key = sourceKey(source)
      return key ? healthOf(this.state, this.network, key) : undefined
    }
    const pinnedKeys = pinned.map(entry => (/^https?:\/\//i.test(entry) ? healthKey(entry) : entry))
    const primaryKey = sourceKey(plan.primary)
    const arrangement = arrangePlan(plan, {
      verdictOf: source => breakerVerdict(health(source), this.now(), this.options.breaker),
      consecutiveFailuresOf: source => health(source)?.consecutiveFailures ?? 0,
      learned: primaryKey ? fixesFor(this.state, this.options.tool, hostOf(primaryKey)) : [],
      isPinned: source => pinnedKeys.includes(source.id) || pinnedKeys.includes(sourceKey(source) ?? ''),
    })
    if (arrangement.skipped.length > 0) {
      const names = arrangement.skipped.map(({ source }) => nameOf(source)).join(', ')
      const until = clock(Math.min(...arrangement.skipped.map(entry => entry.reopensAt)))
      this.options.note(`skipping ${names}: failing from this network (${this.network.label}); tried again after ${until}`)
    }
    if (arrangement.learned) this.options.verbose(`${fixedLastTime(arrangement.learned.fix)}: trying it first`)
    return arrangement.plan
  }

  /** The retry loop's onAttempt hook: records the outcome, and after a failure prefers what fixed the same before. */
  onAttempt(record: AttemptRecord, plan: SourcePlan): void {
    this.attempts.push(record)
    const key = sourceKey(record.source)
    if (!key) return
    const at = this.now()
    if (record.exitCode === 0 && !record.diagnosis) this.record(key, { at, ok: true, via: 'run' })
    const category = record.diagnosis?.category
    if (!category) return
    if (countsAgainstSource(category)) this.record(key, { at, ok: false, category, via: 'run' })
    const moved = preferLearnedFix(plan, this.attempts, fixesFor(this.state, this.options.tool, hostOf(key), category))
    if (moved) this.options.verbose(`${fixedLastTime(moved.fix)}: trying it next`)
  }

  /** Remembers what fixed what, and waits until everything is written. */
  async finish(result: RunResult): Promise<void> {
    const winner = result.attempts.at(-1)
    const winnerKey = winner && sourceKey(winner.source)
    if (result.outcome === 'succeeded' && winner && winnerKey) {
      const at = this.now()
      const fixes = result.attempts.slice(0, -1).flatMap(attempt => {
        const key = sourceKey(attempt.source)
        if (!attempt.diagnosis || !key || key === winnerKey) return []
        return [{ tool: this.options.tool, category: attempt.diagnosis.category, failingHost: hostOf(key), url: winnerKey,
          sourceId: nameOf(winner.source), remedy: attempt.diagnosis.remedy.kind, at }]
      })
      if (fixes.length > 0) this.change(state => fixes.forEach(fix => addFix(state, fix)))
    }
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

  private record(url: string, outcome: { at: number; ok: boolean; category?: string; via: 'run' }): void {
    this.change(state => addOutcomes(state, this.network, [{ url, outcome }]))
  }

  private change(edit: (state: State) => void): void {
    const file = this.file
    if (!file) return
    this.pending = this.pending
      .then(() => updateState(file, edit, this.options.warn))
      .catch(error => this.options.verbose(`could not update mirror health: ${(error as Error).message}`))
  }
}
