import type { Source } from './types.js'

/**
 * Hedged detection of a dead index (issue 15). A black-holed index costs the tool's shortened timeout (pip: 6 s) plus
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
  return /^https?:/i.test(source.indexUrl ?? source.url ?? '')
}

/**
 * The decision at one moment: abandon when, after `afterMs`, the child tree has received no byte and the probe has
 * no answer. Data flowing (any byte) or an index that answers the probe means the tool is working: leave it alone.
 * Where the bytes cannot be measured (`receivedBytes` undefined), never abandon: silence cannot be told from a transfer.
 */
export function shouldAbandon({ elapsedMs, receivedBytes, probe }: { elapsedMs: number; receivedBytes: number | undefined; probe: ProbeState },
  settings: HedgeSettings = HEDGE_DEFAULTS): boolean {
  if (receivedBytes === undefined || receivedBytes > 0) return false
  if (probe === 'answered') return false
  return elapsedMs >= settings.afterMs && probe === 'no-answer'
}

/** The reason given to the attempt's abort, shown in the diagnosis. */
export function hedgeReason(host: string, afterMs: number): string {
  return `no answer from ${host}: nothing received in ${(afterMs / 1000).toFixed(0)} s, and a request of resilient's own got no answer either`
}

export interface HedgeWatchDeps {
  /** Sends the probe (one small GET, never an install); resolves true on any HTTP answer, false on none or an error. */
  probe: (signal: AbortSignal) => Promise<boolean>
  /** Bytes the child tree received since the attempt started; undefined where it cannot be measured. */
  receivedBytes: () => Promise<number | undefined> | number | undefined
  now: () => number
  setTimer: (fn: () => void, ms: number) => { cancel(): void }
}

/**
 * Runs the probe in parallel with an attempt and aborts the attempt when shouldAbandon says so. Start it when the
 * child is spawned; `stop()` when it exits. The probe's own timeout is `afterMs`: no answer by then is no answer.
 */
export function watchHedge(host: string, deps: HedgeWatchDeps, settings: HedgeSettings = HEDGE_DEFAULTS) {
  const controller = new AbortController()
  const probeController = new AbortController()
  const started = deps.now()
  let probe: ProbeState = 'pending'
  let stopped = false
  const probeTimer = deps.setTimer(() => probeController.abort(), settings.afterMs)
  void deps.probe(probeController.signal).then(answered => answered, () => false).then(answered => {
    probe = answered ? 'answered' : 'no-answer'
    probeTimer.cancel()
    void decide()
  })
  const decide = async () => {
    if (stopped || controller.signal.aborted || probe === 'answered') return
    const receivedBytes = await deps.receivedBytes()
    if (stopped) return
    if (shouldAbandon({ elapsedMs: deps.now() - started, receivedBytes, probe }, settings)) controller.abort(hedgeReason(host, settings.afterMs))
  }
  const decisionTimer = deps.setTimer(() => void decide(), settings.afterMs)
  return {
    /** Aborted with hedgeReason when the attempt should be left for the next source. */
    abort: controller.signal,
    stop() {
      stopped = true
      probeTimer.cancel()
      decisionTimer.cancel()
      probeController.abort()
    },
  }
}
