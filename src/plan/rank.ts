import { clockTime } from '../clock-time.js'
import { indexKey } from '../url.js'
import type { LearnedChoice, PlannedAttempt, RunPlan, SourceHealth, StateSnapshot } from './types.js'

export interface Ranking {
  plan: RunPlan
  /** Said always: sources failing from this network, moved last. */
  note?: string
  /** Said with --verbose: the learned order, when it does not change attempt 1. */
  verbose?: string
}

/** The health key of an attempt: its index's (src/url.ts indexKey), or undefined for a local index. */
export function attemptKey(attempt: PlannedAttempt): string | undefined {
  return attempt.hosts.find(host => host.role === 'index')?.key
}

const nameOf = (attempt: PlannedAttempt) => attempt.source.kind === 'mirror' ? attempt.source.id : attempt.source.label
const learnedText = (fix: LearnedChoice) => `${fix.sourceId} fixed this last time (${fix.category.replace(/_/g, ' ')} on ${fix.failingHost})`

/**
 * The order of this run, from what this network remembers; returns a new plan, each moved attempt with its reason:
 * `--mirror` values first as given; then the index, unless its breaker is open; the mirrors, with the one that last
 * fixed a failure on the index's host first, then healthy ones before those on trial, fewer recent failures first;
 * last, every source whose breaker is open, the least recently failed first. The breaker saves time, never an
 * install: a failing source is still tried when all before it failed.
 */
export function rankSources(plan: RunPlan, snapshot: StateSnapshot): Ranking {
  const health = (attempt: PlannedAttempt): SourceHealth => {
    const key = attemptKey(attempt)
    return key ? snapshot.healthOf(key) : { verdict: { state: 'closed' }, consecutiveFailures: 0 }
  }
  const requested = plan.attempts.filter(attempt => attempt.requested)
  const [index, ...mirrors] = plan.attempts.filter(attempt => !attempt.requested)
  if (!index) return { plan: { ...plan, learned: [...snapshot.learned] } }
  const replaceable = index.source.kind === 'upstream' || index.source.kind === 'mirror'
  const open = [index, ...mirrors].filter(attempt => health(attempt).verdict.state === 'open' && (attempt !== index || replaceable))
  const rank = (attempt: PlannedAttempt) => (health(attempt).verdict.state === 'half-open' ? 1_000_000 : 0) + health(attempt).consecutiveFailures
  const ordered = mirrors.filter(attempt => !open.includes(attempt)).map((attempt, position) => ({ attempt, position }))
    .sort((a, b) => rank(a.attempt) - rank(b.attempt) || a.position - b.position).map(entry => entry.attempt)
  const indexHost = attemptKey(index) && new URL(attemptKey(index)!).host
  const fix = snapshot.learned.find(learned => learned.failingHost === indexHost
    && ordered.some(attempt => attemptKey(attempt) === learned.key && health(attempt).verdict.state === 'closed'))
  const learnedAt = fix ? ordered.findIndex(attempt => attemptKey(attempt) === fix.key) : -1
  if (fix) ordered.unshift({ ...ordered.splice(learnedAt, 1)[0]!, reason: learnedText(fix) })
  const failing = open.map(attempt => ({ attempt, health: health(attempt) })).sort((a, b) => (a.health.lastFailureAt ?? 0) - (b.health.lastFailureAt ?? 0))
    .map(({ attempt, health: { consecutiveFailures, lastFailureAt } }) => ({ ...attempt,
      reason: `failing from this network (${consecutiveFailures} failures in a row${lastFailureAt ? `, last at ${clockTime(lastFailureAt)}` : ''}): tried last` }))
  const attempts = [...requested, ...(open.includes(index) ? [] : [index]), ...ordered, ...failing]
  const ranked: RunPlan = { ...plan, attempts, learned: [...snapshot.learned] }
  const note = !failing.length ? undefined : attempts.length > failing.length
    ? `${failing.map(entry => nameOf(entry)).join(', ')}: failing from this network (${snapshot.network}), so tried last`
    : `every source is failing from this network (${snapshot.network}): trying them anyway, the least recently failed first`
  const learnedFirst = fix && attempts[0] && attemptKey(attempts[0]) === fix.key
  return { plan: ranked, note: [note, learnedFirst && `${learnedText(fix)}: trying it first`].filter(Boolean).join('; ') || undefined,
    verbose: fix && !learnedFirst ? `${learnedText(fix)}: it comes right after ${nameOf(attempts[0]!)}` : undefined }
}

/** After a failure of `category` on `failingHost`: the untried attempt that fixed the same before, if any. */
export function learnedNext(plan: RunPlan, queue: readonly PlannedAttempt[], category: string, failingHost: string | undefined): { attempt: PlannedAttempt; fix: LearnedChoice } | undefined {
  if (!failingHost) return undefined
  for (const fix of plan.learned) {
    if (fix.category !== category || fix.failingHost !== failingHost) continue
    const attempt = queue.find(candidate => attemptKey(candidate) === indexKey(fix.key))
    if (attempt) return { attempt, fix }
  }
  return undefined
}

export { learnedText }
