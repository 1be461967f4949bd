import { homedir } from 'node:os'
import type { Config } from '../config/schema.js'
import { redact } from '../redact.js'
import { orderSources } from '../plan/sources.js'
import { labelOf } from '../url.js'
import { parseInvocation } from '../tools/parse-invocation.js'

/**
 * The index an install will use first, and the mirrors after it, for the prompt: the same plan a tool run makes
 * (orderSources, src/plan/sources.ts), so what is shown is what happens. The wording only; the install itself plans again.
 */
export function describeInstallIndex(argv: string[], config: Config, env: NodeJS.ProcessEnv, cwd: string): string {
  try {
    const invocation = parseInvocation(argv, env, { allowMissing: true })
    const context = { args: invocation.args, env, cwd, home: env.HOME || homedir(), executable: invocation.executable }
    const order = orderSources({ adapter: invocation.adapter, config, userIndex: invocation.adapter.findUserIndex(context), noMirrorReason: invocation.adapter.noMirrorReason?.(context) })
    const [primary, ...rest] = order.sources.map(entry => entry.source)
    const first = primary!.indexUrl ? redact(primary!.indexUrl) : primary!.label
    const then = rest.map(source => source.indexUrl ? labelOf(source.indexUrl) : source.label)
    return then.length ? `${first} (if it fails: ${then.join(', ')})` : first
  } catch {
    return 'the installer\'s own configuration'
  }
}
