import type { Source } from './types.js'
import { indexUrlOf } from '../url.js'

/**
 * Hedged detection of a dead index. With each attempt that has somewhere else to go, resilient sends one small request
 * of its own to the attempt's index, and, once that has had no answer for `afterMs`, one to the next source (a healthy
 * run asks nothing of any other source). The attempt is left only when the tool has received nothing while another
 * source answered and the attempt's own index stayed silent much longer than that source took: a source seen
 * answering faster. On a long-haul link every source is slow and none is left; an index that answers, however
 * slowly, is never left.
 */
export interface HedgeSettings {
  /** The shortest silence (of the tool, and of the index to resilient's request) after which an attempt may be left. */
  afterMs: number
}

export const HEDGE_DEFAULTS: HedgeSettings = { afterMs: 2000 }

/**
 * How much longer than the other source the attempt's index must stay silent: an index as slow as the other source,
 * or a little slower (one link of a long-haul path), is only slow.
 */
export const SLOWER_FACTOR = 3

/** What the two requests of resilient's own have seen, in ms on the clock of `now`. */
export interface ProbeTimes {
  /** When the request to the attempt's own index was sent. */
  sentAt: number
  /** How long the attempt's own index took to answer; undefined while it has not (or failed). */
  own?: number
  /** How long the other source took to answer its own request; undefined while it has not. */
  other?: number
}

/**
 * Whether an attempt on `source` may be hedged at all. Never on an index the person chose as their own (a private
 * index is never left for a mirror, so there is nothing to hedge towards), never without a next source, never for an
 * attempt that is not a network one, never when the person set the tool's own timeout or retries (resilient then
 * waits for the tool to give up, as they asked).
 */
export function mayHedge({ source, hasNextSource, networked, userKnobs = false }: { source: Source; hasNextSource: boolean; networked: boolean; userKnobs?: boolean }): boolean {
  if (!networked || !hasNextSource || userKnobs) return false
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

/** How long the attempt's index must have been silent before it is left, once the other source answered in `otherMs`. */
export function silenceNeeded(otherMs: number, settings: HedgeSettings = HEDGE_DEFAULTS): number {
  return Math.max(settings.afterMs, SLOWER_FACTOR * otherMs)
}

/**
 * The decision at one moment: abandon when the tool has had a connection open for `afterMs` without receiving a
 * byte, its index has not answered resilient's request, and another source has answered it: the index has been
 * silent for at least SLOWER_FACTOR times what that source took. Any byte received, any answer from the index, or no
 * answer from anyone (every source slow) leaves the attempt alone. A tool still starting (no connection yet: Python's
 * imports take seconds on a busy machine) is not waiting on the index. Where bytes cannot be measured, never abandon.
 */
export function shouldAbandon({ now, activity, probes }: { now: number; activity: ChildActivity; probes: ProbeTimes }, settings: HedgeSettings = HEDGE_DEFAULTS): boolean {
  if (probes.own !== undefined || probes.other === undefined) return false
  if (activity.receivedBytes !== 0 || activity.connectedAt === undefined) return false
  return now - activity.connectedAt >= settings.afterMs && now - probes.sentAt >= silenceNeeded(probes.other, settings)
}

/** The reason given to the attempt's abort, shown in the diagnosis: how long the tool has received nothing. */
export function hedgeReason(host: string, silentMs: number, other: { host: string; ms: number }): string {
  return `no answer from ${host}: nothing received in ${(silentMs / 1000).toFixed(0)} s, while ${other.host} answered a request of resilient's own in ${seconds(other.ms)}`
}

const seconds = (ms: number) => (ms < 1000 ? `${Math.max(1, Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`)

/** Sends one small GET (never an install); resolves true on any HTTP answer, false on none or an error. */
export type HedgeProbe = (signal: AbortSignal) => Promise<boolean>

export interface HedgeWatchDeps {
  /** The request to the attempt's own index, and to the other source, with that source's host for messages. */
  probe: HedgeProbe
  other: { host: string; probe: HedgeProbe }
  /** What the attempt's tree has done so far. */
  activity: () => ChildActivity
  now: () => number
  setTimer: (fn: () => void, ms: number) => { cancel(): void }
}

/** How often the decision is looked at while the index is silent. */
const CHECK_MS = 250

/**
 * Runs the requests in parallel with an attempt and aborts the attempt when shouldAbandon says so. Start it with the
 * attempt; `stop()` when it ends (the requests are cancelled then, not before: a slow answer is still an answer).
 */
export function watchHedge(host: string, deps: HedgeWatchDeps, settings: HedgeSettings = HEDGE_DEFAULTS) {
  const controller = new AbortController()
  const requests = new AbortController()
  const probes: ProbeTimes = { sentAt: deps.now() }
  let stopped = false
  let check: { cancel(): void } | undefined
  /** Sends `probe` now; on an answer, `record` gets the time it took. */
  const send = (probe: HedgeProbe, record: (ms: number) => void) => {
    const sentAt = deps.now()
    void probe(requests.signal).then(ok => ok, () => false).then(ok => {
      if (ok && !stopped) record(deps.now() - sentAt)
    })
  }
  send(deps.probe, ms => {
    probes.own = ms
    check?.cancel()
  })
  let askedOther = false
  const decide = () => {
    if (stopped || controller.signal.aborted || probes.own !== undefined) return
    if (!askedOther) send(deps.other.probe, ms => { probes.other = ms })
    askedOther = true
    const now = deps.now()
    const activity = deps.activity()
    if (shouldAbandon({ now, activity, probes }, settings)) {
      return void controller.abort(hedgeReason(host, now - activity.connectedAt!, { host: deps.other.host, ms: probes.other! }))
    }
    check = deps.setTimer(decide, CHECK_MS)
  }
  check = deps.setTimer(decide, settings.afterMs)
  return {
    /** Aborted with hedgeReason when the attempt should be left for the next source (runAttempts's AttemptWatch). */
    signal: controller.signal,
    stop() {
      stopped = true
      check?.cancel()
      requests.abort()
    },
  }
}
