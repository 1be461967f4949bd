import { clockTime } from '../clock-time.js'
import type { BreakerVerdict } from '../plan/types.js'
import { OUTCOMES_KEPT, type MirrorHealth, type Outcome } from './schema.js'

export interface BreakerSettings {
  failureThreshold: number
  cooldownSeconds: number
}

/**
 * closed: use the mirror. open: try it after every other source (plan/rank.ts). half-open: the cooldown is over; it
 * is tried after the healthy ones, and one more failure opens it for another cooldown (its count is at the threshold).
 */
export type { BreakerVerdict }

// Failures that say something about the index from this network. Not counted: a missing package (a lagging mirror
// is handled by retrying upstream), a proxy failure (the proxy, not the index), and local failures (builds, disk).
const COUNTED = new Set(['timeout', 'connection', 'dns', 'ssl', 'http_auth', 'rate_limited', 'server_error', 'hash_mismatch'])

export function countsAgainstSource(category: string): boolean {
  return COUNTED.has(category)
}

/** Derived from the counts at read time, so a changed threshold or cooldown applies at once. */
export function breakerVerdict(health: MirrorHealth | undefined, now: number, settings: BreakerSettings): BreakerVerdict {
  if (!health || health.consecutiveFailures < settings.failureThreshold) return { state: 'closed' }
  const reopensAt = (health.lastFailureAt ?? 0) + settings.cooldownSeconds * 1000
  return now < reopensAt ? { state: 'open', reopensAt } : { state: 'half-open' }
}

/** The health after one more outcome. */
export function withOutcome(health: MirrorHealth | undefined, url: string, outcome: Outcome): MirrorHealth {
  const base = health ?? { url, successes: 0, failures: 0, consecutiveFailures: 0, recent: [] }
  const recent = [...base.recent, outcome].slice(-OUTCOMES_KEPT)
  if (outcome.ok) return { ...base, url, successes: base.successes + 1, consecutiveFailures: 0, recent }
  return { ...base, url, failures: base.failures + 1, consecutiveFailures: base.consecutiveFailures + 1, lastFailureAt: outcome.at, recent }
}

/** One line for `mirrors list` and --verbose: `ok (5 of 5 recent)`, `tried last until 14:05 (3 failures: timeout)`. */
export function describeHealth(health: MirrorHealth | undefined, now: number, settings: BreakerSettings): string {
  if (!health || health.recent.length === 0) return 'no data yet'
  const verdict = breakerVerdict(health, now, settings)
  const last = health.recent.at(-1)!
  const recentOk = health.recent.filter(outcome => outcome.ok).length
  const lastFailure = [...health.recent].reverse().find(outcome => !outcome.ok)
  const why = lastFailure?.category ? `: ${lastFailure.category.replace(/_/g, ' ')}` : ''
  if (verdict.state === 'open') {
    return `tried last until ${clockTime(verdict.reopensAt)} (${health.consecutiveFailures} failures in a row${why})`
  }
  if (verdict.state === 'half-open') return `on trial: the next failure skips it again (${health.consecutiveFailures} failures in a row${why})`
  const counts = `${recentOk} of ${health.recent.length} recent ok`
  if (recentOk === health.recent.length) return `ok (${counts}${last.latencyMs !== undefined ? `, ${Math.round(last.latencyMs)} ms` : ''})`
  return `${recentOk === 0 ? 'failing' : 'mixed'} (${counts}; last failure${why})`
}
