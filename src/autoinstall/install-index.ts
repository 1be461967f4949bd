import { homedir } from 'node:os'
import type { Config } from '../config/schema.js'
import { redact } from '../redact.js'
import { gatherPlanRequest } from '../plan/gather.js'
import { planRun } from '../plan/plan-run.js'
import { labelOf } from '../url.js'
import { parseInvocation } from '../tools/parse-invocation.js'

/**
 * The index an install will use first, and the mirrors after it, for the prompt: planned by the tool run's own
 * planner (gatherPlanRequest and planRun, what runTool calls), so what is shown is what happens. The wording only;
 * the install itself plans again.
 */
export function describeInstallIndex(argv: string[], config: Config, env: NodeJS.ProcessEnv, cwd: string): string {
  try {
    const invocation = parseInvocation(argv, env, { allowMissing: true })
    const plan = planRun(gatherPlanRequest(invocation, { env, cwd, home: env.HOME || homedir() }, { config }))
    const [primary, ...rest] = plan.attempts.map(attempt => attempt.source)
    const first = primary!.indexUrl ? redact(primary!.indexUrl) : primary!.label
    const then = rest.map(source => source.indexUrl ? labelOf(source.indexUrl) : source.label)
    return then.length ? `${first} (if it fails: ${then.join(', ')})` : first
  } catch {
    return 'the installer\'s own configuration'
  }
}
