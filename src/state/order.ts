import type { AttemptRecord, Source, SourcePlan } from '../retry/types.js'
import type { BreakerVerdict } from './breaker.js'
import { healthKey, type LearnedFix } from './schema.js'

export interface OrderContext {
  verdictOf(source: Source): BreakerVerdict
  consecutiveFailuresOf(source: Source): number
  /** Fixes learned for the primary's host, the most recent first. */
  learned: LearnedFix[]
  /** Mirrors the person named with --mirror for this run: kept first, in their order, never skipped. */
  isPinned(source: Source): boolean
}

export interface Arrangement {
  plan: SourcePlan
  /** Sources left out because their breaker is open: they are not contacted in this run. */
  skipped: { source: Source; reopensAt: number }[]
  /** The fallback moved first because it fixed a failure on this host before. */
  learned?: { source: Source; fix: LearnedFix }
}

/** The URL a source really talks to, as health is keyed. */
export function sourceKey(source: Source): string | undefined {
  const url = source.url ?? source.indexUrl
  return url && /^https?:\/\//i.test(url) ? healthKey(url) : undefined
}

/**
 * The order of this run: mirrors whose breaker is open are dropped; the mirror that fixed a failure on the primary's
 * host last time comes first; then healthy mirrors before ones on trial, fewer recent failures first, otherwise the
 * configured order. A replaceable primary whose breaker is open gives way to the first mirror. When every mirror is
 * open the primary is kept, so a run always makes at least one attempt.
 */
export function arrangePlan(plan: SourcePlan, context: OrderContext): Arrangement {
  const skipped: Arrangement['skipped'] = []
  const pinned = plan.fallbacks.filter(source => context.isPinned(source))
  const usable: { source: Source; rank: number }[] = []
  for (const source of plan.fallbacks.filter(source => !context.isPinned(source))) {
    const verdict = context.verdictOf(source)
    if (verdict.state === 'open') skipped.push({ source, reopensAt: verdict.reopensAt })
    else usable.push({ source, rank: (verdict.state === 'half-open' ? 1_000_000 : 0) + context.consecutiveFailuresOf(source) })
  }
  const ordered = usable.sort((a, b) => a.rank - b.rank).map(entry => entry.source)
  let learned: Arrangement['learned']
  for (const fix of context.learned) {
    const index = ordered.findIndex(source => sourceKey(source) === fix.url && context.verdictOf(source).state === 'closed')
    if (index < 0) continue
    const [source] = ordered.splice(index, 1)
    ordered.unshift(source!)
    learned = { source: source!, fix }
    break
  }
  const fallbacks = [...pinned, ...ordered]
  let primary = plan.primary
  const primaryVerdict = context.verdictOf(primary)
  if ((primary.kind === 'upstream' || primary.kind === 'mirror') && primaryVerdict.state === 'open' && fallbacks.length > 0) {
    skipped.unshift({ source: primary, reopensAt: primaryVerdict.reopensAt })
    primary = fallbacks.shift()!
  }
  return { plan: { ...plan, primary, fallbacks }, skipped, learned }
}

/**
 * After a failure, moves the untried fallback that fixed this same failure (category and host) before to the front.
 * Mutates plan.fallbacks, which the retry loop reads for its next choice. Returns the source moved, if any.
 */
export function preferLearnedFix(plan: SourcePlan, attempts: readonly AttemptRecord[], fixes: LearnedFix[]): { source: Source; fix: LearnedFix } | undefined {
  const untried = (source: Source) => !attempts.some(attempt => attempt.source.id === source.id)
  for (const fix of fixes) {
    const index = plan.fallbacks.findIndex(source => untried(source) && sourceKey(source) === fix.url)
    if (index < 0) continue
    const firstUntried = plan.fallbacks.findIndex(untried)
    const [source] = plan.fallbacks.splice(index, 1)
    plan.fallbacks.splice(firstUntried, 0, source!)
    return { source: source!, fix }
  }
  return undefined
}
