import type { Config } from '../config/schema.js'
import type { IndexChoice } from '../tools/types.js'
import { labelOf, sameIndex } from '../url.js'
import { orderSources } from './sources.js'
import type { AttemptRecord, PlannedAttempt, RunPlan } from './types.js'

/**
 * Before any attempt or probe leaves the index the tool uses, or names the package to another index, that index must
 * be known for certain (RunPlan.unconfirmed). When the tool's files could not tell, the tool itself was asked
 * (ToolAdapter.source); this decides, purely, what its answer means. No answer counts as a private index.
 */
export type Confirmation =
  /** The plan was right: go on with it. */
  | { plan: RunPlan; note: string }
  /** Plan again for the tool's real choice (plan-run.ts): a private one keeps to itself, a public one keeps mirrors. */
  | { replanFor: IndexChoice | null; note: string; private: boolean }

export function confirmSource(plan: RunPlan, answer: IndexChoice | null | undefined, context: { config: Config; asked: string; failure?: string }): Confirmation {
  const tool = plan.invocation.adapter.name
  if (answer === undefined) {
    const why = `resilient could not tell which index ${tool} uses (${plan.unconfirmed}) and \`${context.asked}\` did not say${context.failure ? ` (${context.failure})` : ''}, so it counts as your own`
    return { replanFor: { url: '', origin: context.asked, privateBecause: why }, note: `${why}: installs are never sent elsewhere (dependency confusion)`, private: true }
  }
  const order = orderSources({ adapter: plan.invocation.adapter, config: context.config, userIndex: answer })
  const primary = order.sources.find(entry => !entry.requested)!.source
  const said = answer ? `${tool} uses ${labelOf(answer.url)} (${answer.origin})` : `${tool} uses its default index`
  if (primary.kind === 'private' || primary.kind === 'local') return { replanFor: answer, note: `${tool} says: ${order.noSwitchReason ?? `${said}, your own index`}`, private: true }
  const assumed = plan.primary.indexUrl
  const same = answer ? Boolean(assumed && sameIndex(answer.url, assumed)) : !plan.userIndex
  if (!same) return { replanFor: answer, note: `${said}, a public index: planning for it`, private: false }
  const { unconfirmed: _, ...confirmed } = plan
  return { plan: confirmed, note: `${said}, as planned` }
}

/**
 * The loop's state carried over to a new plan: attempts made on the tool's own index (they applied none) count as
 * made on the new plan's own index, and the queue holds the new plan's attempts not made yet.
 */
export function adoptPlan(plan: RunPlan, made: AttemptRecord[], current: PlannedAttempt): { current: PlannedAttempt; queue: PlannedAttempt[] } {
  const own = plan.attempts.find(attempt => attempt.source.url === undefined)
  for (const record of made) if (record.source.url === undefined && own) record.source = own.source
  const same = (attempt: PlannedAttempt, other: { source: { id: string; url?: string } }) => attempt.source.id === other.source.id && attempt.source.url === other.source.url
  const now = (current.source.url === undefined ? own : undefined) ?? plan.attempts.find(attempt => same(attempt, current))
  const queue = plan.attempts.filter(attempt => attempt !== now && !made.some(record => same(attempt, record)))
  const next = now ?? queue[0]!
  return { current: next, queue: queue.filter(attempt => attempt !== next) }
}

/** A plan that cannot be confirmed keeps to the tool's own index: every attempt that would leave it is dropped. */
export function withoutLeaving(plan: RunPlan): RunPlan {
  const { unconfirmed: why, upstream: _, ...rest } = plan
  const own = plan.attempts.filter(attempt => attempt.source.url === undefined)
  // Every planned attempt applies an index (a configured one): only the tool's own answer could plan one that does not.
  if (!own.length) throw new Error('a plan whose index is unconfirmed needs AttemptsDeps.confirmSource')
  return { ...rest, attempts: own, noSwitchReason: `${why}, and it could not be confirmed` }
}
