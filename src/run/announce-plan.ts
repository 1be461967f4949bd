import type { PlanRequest } from '../plan/plan-run.js'
import type { RunPlan } from '../plan/types.js'
import type { RunReporter } from './reporter.js'
import { announceUnconfirmed } from './confirm-source.js'

/**
 * What the plan says before the first attempt: with --verbose only (a healthy run prints nothing of resilient's
 * own); in a terminal, attempt 1 on a mirror says why in its one dim line, and a failure says where it was. A dry run
 * warns of the registries a lockfile pins.
 */
export function announcePlan({ plan, request, ranking, reporter, dryRun }: { plan: RunPlan; request: PlanRequest & { knobsOrigin?: string }; ranking: { note?: string; verbose?: string }; reporter: RunReporter; dryRun: boolean }): void {
  if (ranking.note) reporter.verbose(ranking.note)
  if (ranking.verbose) reporter.verbose(ranking.verbose)
  if (request.knobsOrigin) reporter.verbose(`keeping your own timeout/retries (${request.knobsOrigin})`)
  if (request.userIndex) reporter.verbose(`index chosen by you: ${request.userIndex.url} (${request.userIndex.origin})`)
  if (plan.noSwitchReason) reporter.verbose(`no mirror will be used: ${plan.noSwitchReason}`)
  if (plan.noRelayReason) reporter.verbose(`no relay: ${plan.noRelayReason}`)
  announceUnconfirmed(plan, reporter, dryRun)
  if (plan.lockedSources) (dryRun ? reporter.warn(plan.lockedSources) : reporter.verbose(plan.lockedSources))
}
