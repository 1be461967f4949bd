import { homedir } from 'node:os'
import type { Config } from '../config/schema.js'
import { redact } from '../redact.js'
import { labelOf, planSources } from '../retry/sources.js'
import { parseInvocation } from '../tools/parse-invocation.js'

/**
 * The index an install will use first, and the mirrors after it, for the prompt: the same plan a tool run makes
 * (planSources), so what is shown is what happens. The wording only; the install itself plans again.
 */
export function describeInstallIndex(argv: string[], config: Config, env: NodeJS.ProcessEnv, cwd: string): string {
  try {
    const invocation = parseInvocation(argv, env, { allowMissing: true })
    const context = { args: invocation.args, env, cwd, home: env.HOME || homedir(), executable: invocation.executable }
    const plan = planSources({ adapter: invocation.adapter, config, userIndex: invocation.adapter.findUserIndex(context), context })
    const first = plan.primary.indexUrl ? redact(plan.primary.indexUrl) : plan.primary.label
    const then = plan.fallbacks.map(source => source.indexUrl ? labelOf(source.indexUrl) : source.label)
    return then.length ? `${first} (if it fails: ${then.join(', ')})` : first
  } catch {
    return 'the installer\'s own configuration'
  }
}
