import type { Source } from './types.js'
import { indexUrlOf } from '../url.js'

/**
 * Hedged detection of a dead index. A black-holed index costs the tool's shortened timeout (pip: 6 s) plus
 * the retry; a parallel probe of the same index answers in well under a second when it is alive. When the child has
 * received nothing and the probe has had no answer for `afterMs`, the attempt is abandoned for the next source.
 */
export interface HedgeSettings {
  /** How long the child may go without receiving anything while the index does not answer the probe either. */
  afterMs: number
}

export const HEDGE_DEFAULTS: HedgeSettings = { afterMs: 2000 }

/** What the probe of the attempt's index has seen so far. */
export type ProbeState = 'pending' | 'answered' | 'no-answer'

/**
 * Whether an attempt on `source` may be hedged at all. Never on an index the person chose as their own (a private
 * index is never left for a mirror, so there is nothing to hedge towards), never without a next source, never for an
 * attempt that is not a network one (`networked`).
 */
export function mayHedge({ source, hasNextSource, networked }: { source: Source; hasNextSource: boolean; networked: boolean }): boolean {
  if (!networked || !hasNextSource) return false
  if (source.kind === 'private' || source.kind === 'local') return false
  return /^https?:/i.test(indexUrlOf(source) ?? '')
}

/** What the attempt's tree has done on the network (ProgressWatch.activity), times from the same clock as `now`. */
export interface ChildActivity {
  /** When the tree first opened a connection of its own; undefined until it has. */
  connectedAt?: number
  /** Bytes it has received; undefined where that cannot be measured. */
  receivedBytes?: number
}

/**
 * The decision at one moment: abandon when the tool has had a connection open for `afterMs` without receiving a
 * byte, and the probe got no answer. Data flowing (any byte) or an index that answers the probe means the tool is
 * working: leave it alone. A tool still starting (no connection yet: Python's imports take seconds on a busy machine)
 * is not waiting on the index. Where bytes cannot be measured, never abandon: silence cannot be told from a transfer.
 */
export function shouldAbandon({ now, activity, probe }: { now: number; activity: ChildActivity; probe: ProbeState }, settings: HedgeSettings = HEDGE_DEFAULTS): boolean {
  if (probe !== 'no-answer' || activity.receivedBytes !== 0 || activity.connectedAt === undefined) return false
  return now - activity.connectedAt >= settings.afterMs
}

/** The reason given to the attempt's abort, shown in the diagnosis. */
export function hedgeReason(host: string, afterMs: number): string {
  return `no answer from ${host}: nothing received in ${(afterMs / 1000).toFixed(0)} s, and a request of resilient's own got no answer either`
}

export interface HedgeWatchDeps {
  /** Sends the probe (one small GET, never an install); resolves true on any HTTP answer, false on none or an error. */
  probe: (signal: AbortSignal) => Promise<boolean>
  /** What the attempt's tree has done so far. */
  activity: () => ChildActivity
  now: () => number
  setTimer: (fn: () => void, ms: number) => { cancel(): void }
}

/** How often the decision is looked at once the probe has no answer. */
const CHECK_MS = 250

/**
 * Runs the probe in parallel with an attempt and aborts the attempt when shouldAbandon says so. Start it with the
 * attempt; `stop()` when it ends. The probe's own timeout is `afterMs`: no answer by then is no answer.
 */
export function watchHedge(host: string, deps: HedgeWatchDeps, settings: HedgeSettings = HEDGE_DEFAULTS) {
  const controller = new AbortController()
  const probeController = new AbortController()
  let probe: ProbeState = 'pending'
  let stopped = false
  let check: { cancel(): void } | undefined
  const probeTimer = deps.setTimer(() => probeController.abort(), settings.afterMs)
  const decide = () => {
    if (stopped || controller.signal.aborted) return
    if (shouldAbandon({ now: deps.now(), activity: deps.activity(), probe }, settings)) return void controller.abort(hedgeReason(host, settings.afterMs))
    check = deps.setTimer(decide, CHECK_MS)
  }
  void deps.probe(probeController.signal).then(answered => answered, () => false).then(answered => {
    probeTimer.cancel()
    if (stopped) return
    probe = answered ? 'answered' : 'no-answer'
    // An index that answers needs no more watching; one that does not is watched until the attempt ends.
    if (!answered) decide()
  })
  return {
    /** Aborted with hedgeReason when the attempt should be left for the next source (executeRun's AttemptWatch). */
    signal: controller.signal,
    stop() {
      stopped = true
      probeTimer.cancel()
      check?.cancel()
      probeController.abort()
    },
  }
}
