import type { Diagnosis } from '../diagnose/types.js'
import { blamedHost } from '../plan/blame.js'
import { learnedNext, learnedText } from '../plan/rank.js'
import type { AttemptRecord, PlannedAttempt, RunPlan, Source } from '../plan/types.js'
import { indexUrlOf, labelOf, sameIndex } from '../url.js'
import { backoffMs } from './backoff.js'

/** What the loop does next: `queue` is every attempt still planned, the next one first. */
export type Decision =
  | { action: 'attempt'; queue: PlannedAttempt[]; waitMs: number; bypassCache: boolean; reason: string }
  /** `hint` only when the stop itself calls for one (credentials, the network down); else the cause's advice. */
  | { action: 'stop'; reason: string; hint?: string }

export interface DecisionInput {
  diagnosis: Diagnosis
  /** The attempt that just failed. */
  attempt: PlannedAttempt
  /** Every attempt so far, the failed one last. */
  history: readonly AttemptRecord[]
  /** The attempts not made yet, in order. */
  queue: readonly PlannedAttempt[]
  plan: RunPlan
  elapsedMs: number
  random?: () => number
  /** After a timeout or a dropped connection: no source left (a sole source: itself) answers resilient's own request. */
  noSourceAnswers?: boolean
}

const CREDENTIALS_HINT = 'The index needs credentials. Give them for this index only: a keyring or ~/.netrc entry, or the URL form https://<user>:<token>@host/... in the tool\'s own config (never on a shared command line).'
const NETWORK_DOWN_HINT = 'Check this machine\'s connection: is it online, does a VPN or captive portal need you, does DNS work (getent hosts <index host>; /etc/resolv.conf)? Behind a corporate network, set HTTPS_PROXY. To install without a network, see offline mode (resilient --offline).'
function sameSource(a: Source, b: Source): boolean {
  const [x, y] = [indexUrlOf(a), indexUrlOf(b)]
  return a.id === b.id || Boolean(x && y && sameIndex(x, y))
}

/**
 * What to do after a failed attempt. Pure: all it needs is passed in. The rules (docs/plan.md):
 * a give-up cause stops; a timeout or a dead connection moves to the next source, and only a sole source is tried a
 * second time; a 429 or 5xx waits once (Retry-After, capped) and moves on if the same source answers the same again;
 * a repeat or a wait never takes the place of an untried source within maxAttempts; nothing starts after
 * maxTotalSeconds.
 */
export function decideNext(input: DecisionInput): Decision {
  const { diagnosis, attempt, history, plan, elapsedMs } = input
  const config = plan.limits
  const random = input.random ?? Math.random
  const { source } = attempt
  const remedy = diagnosis.remedy
  const stop = (reason: string, hint?: string): Decision => ({ action: 'stop', reason, hint })
  if (remedy.kind === 'give-up') return stop(diagnosis.summary)
  if (diagnosis.category === 'http_auth' && (source.kind === 'private' || source.kind === 'local')) return stop(diagnosis.summary, CREDENTIALS_HINT)
  // Two different indexes that cannot be resolved, or no route at all: this machine's network is down, and every
  // further mirror would fail the same way.
  const offlineSigns = history.filter(a => a.diagnosis && (a.diagnosis.category === 'dns' || /ENETUNREACH|EHOSTUNREACH/.test(a.diagnosis.facts.errno ?? '')))
  if (new Set(offlineSigns.map(a => a.source.id)).size >= 2) return stop('no index could be reached by name or route: the network of this machine looks down', NETWORK_DOWN_HINT)
  const upstream = plan.upstream
  const upstreamLeft = source.kind === 'mirror' && upstream && !history.some(record => sameSource(record.source, upstream.source))
  if (remedy.kind === 'upstream' && !upstreamLeft) return stop(diagnosis.summary)
  const budget = config.maxAttempts - history.length
  if (budget <= 0) {
    const noMirror = plan.noSwitchReason ? ` (no mirror was tried: ${plan.noSwitchReason})` : ''
    return stop(history.length === 1 ? `no retry is allowed (maxAttempts is 1)${noMirror}` : `all ${history.length} attempts failed${noMirror}`)
  }
  const queue = input.queue.slice(0, budget)
  const blamed = blamedHost(diagnosis, attempt.hosts)
  // The lockfile pins the failing host, and every attempt left would download from it too.
  if (blamed?.role === 'lockfile' && queue.every(next => next.hosts.some(host => host.key === blamed.key))) {
    return stop(`${blamed.host}, which the lockfile pins, failed; no attempt left avoids it`, plan.lockedSources)
  }
  const tries = history.filter(record => sameSource(record.source, source)).length
  const capMs = config.maxWaitSeconds * 1000
  const bypassCache = remedy.kind === 'switch-mirror' && Boolean(remedy.bypassCache)
  const roomToRepeat = queue.length < budget
  const decide = (decision: Decision): Decision => {
    if (decision.action === 'attempt' && elapsedMs + decision.waitMs >= config.maxTotalSeconds * 1000) return stop(`the time budget of ${config.maxTotalSeconds} s is spent`)
    return decision
  }
  const again = (reason: string, waitMs = backoffMs(tries, capMs, random)): Decision => decide({ action: 'attempt', queue: [attempt, ...queue], waitMs, bypassCache, reason })
  const next = (why: string): Decision => {
    const learned = learnedNext(plan, queue, diagnosis.category, blamed && labelOf(blamed.key))
    const chosen = learned?.attempt ?? queue[0]!
    const reason = `${why}: switching to ${chosen.source.label}${learned ? ` (${learnedText(learned.fix)})` : ''}`
    return decide({ action: 'attempt', queue: [chosen, ...queue.filter(other => other !== chosen)], waitMs: 0, bypassCache, reason })
  }

  if (remedy.kind === 'upstream') {
    return decide({ action: 'attempt', queue: [upstream!, ...queue.filter(other => !sameSource(other.source, upstream!.source))].slice(0, budget), waitMs: 0, bypassCache,
      reason: 'mirrors lag behind the upstream index: trying it once' })
  }
  if (remedy.kind === 'retry') return roomToRepeat ? again('retrying after a pause') : queue.length ? next('no attempt left for a pause') : stop(diagnosis.summary)
  if (remedy.kind === 'wait') {
    const sameAgain = history.slice(0, -1).some(record => sameSource(record.source, source) && record.diagnosis?.category === diagnosis.category)
    const requested = (diagnosis.facts.retryAfterSeconds ?? 0) * 1000
    const waitMs = Math.min(requested || backoffMs(tries, capMs, random), capMs)
    // Another source now is sooner than a long Retry-After.
    const sooner = queue.length > 0 && (requested > capMs || waitMs > 10_000)
    if (!sameAgain && roomToRepeat && !sooner) return again(`${source.label} asked to come back later: waiting once`, waitMs)
    const why = sameAgain ? `${source.label} answered the same again` : sooner ? `${source.label} asked for a long wait` : `${source.label} failed`
    return queue.length ? next(why) : stop(sameAgain ? `${diagnosis.summary}, twice` : diagnosis.summary)
  }
  // The tool has spent its own timeout and retries: another attempt is worth its time only on a source that answers.
  if (input.noSourceAnswers) {
    return stop(plan.attempts.length === 1 ? `${source.label} did not answer a request of resilient's own either: another attempt would wait as long again`
      : 'no other source answered a request of resilient\'s own either: another attempt would wait as long again')
  }
  // An unrecognised failure with network evidence earns one try on another source, never the same one again.
  if (remedy.kind === 'switch-mirror' && remedy.once && (!queue.length || history.filter(record => record.diagnosis?.ruleId === diagnosis.ruleId).length > 1)) return stop(diagnosis.summary)
  if (queue.length) return next(`${source.label} failed`)
  if (plan.attempts.length === 1 && tries < 2) return again(`no other source: trying ${source.label} once more`)
  return stop(tries >= 2 ? `${source.label} failed twice` : `every source failed (${history.length} attempts)`)
}
