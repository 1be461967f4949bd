import type { Config } from '../config/schema.js'
import { confirmSource } from '../plan/confirm.js'
import { planRun, type PlanRequest } from '../plan/plan-run.js'
import { rankSources } from '../plan/rank.js'
import type { RunPlan, StateSnapshot } from '../plan/types.js'
import type { AttemptsDeps } from '../retry/attempts-loop.js'
import { askToolForSource } from '../tools/source/ask-source.js'
import type { ToolContext } from '../tools/types.js'
import type { RunReporter } from './reporter.js'

export interface ConfirmationContext {
  request: PlanRequest
  config: Config
  /** The tool's context as findUserIndex read it: the tool is asked in the same folder with the same environment. */
  tool: ToolContext
  state?: StateSnapshot
  reporter: RunReporter
}

/**
 * The loop's `confirmSource`: asks the tool which index it uses (ToolAdapter.source), once, when the run is about
 * to leave that index or to probe it; says what it learnt; returns the plan to go on with (plan/confirm.ts), planned
 * again and ranked when the tool's answer is not what the plan assumed.
 */
export function sourceConfirmation({ request, config, tool, state, reporter }: ConfirmationContext): NonNullable<AttemptsDeps['confirmSource']> {
  return async (plan: RunPlan) => {
    const { adapter, launcher } = plan.invocation
    const { answer, asked, failure } = adapter.source ? await askToolForSource(adapter, tool, launcher) : { answer: undefined, asked: `${adapter.name}`, failure: 'it cannot be asked' }
    const confirmation = confirmSource(plan, answer, { config, asked, failure })
    if ('plan' in confirmation) {
      reporter.verbose(confirmation.note)
      return confirmation.plan
    }
    reporter.note(confirmation.note)
    const replanned = planRun({ ...request, userIndex: confirmation.replanFor, sourceUncertain: undefined })
    return state ? rankSources(replanned, state).plan : replanned
  }
}

/** A plan not sure of its index says so: in the dry run's plan, and with --verbose before a real run. */
export function announceUnconfirmed(plan: RunPlan, reporter: RunReporter, dryRun: boolean): void {
  if (!plan.unconfirmed) return
  const tool = plan.invocation.adapter.name
  const unsure = `not sure which index ${tool} uses (${plan.unconfirmed}): ${tool} is asked before anything leaves it`
  if (dryRun) reporter.warn(unsure)
  else reporter.verbose(unsure)
}
