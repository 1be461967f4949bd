import { configSchema, type Config } from '../../src/config/schema.js'
import { gatherPlanRequest } from '../../src/plan/gather.js'
import { planRun } from '../../src/plan/plan-run.js'
import { planAttempt } from '../../src/plan/attempt.js'
import { orderSources } from '../../src/plan/sources.js'
import type { Source } from '../../src/plan/types.js'
import type { ToolName } from '../../src/tools/index.js'
import type { Invocation } from '../../src/tools/parse-invocation.js'
import type { CommandLine, IndexChoice, ToolAdapter, ToolContext } from '../../src/tools/types.js'

/**
 * The sources of a plan in the shape the adapter tests read: the index, the other sources in order, the upstream,
 * and why no mirror may be used (src/plan/sources.ts orderSources, with the adapter's noMirrorReason).
 */
export function planSources(input: { adapter: ToolAdapter; config: Config; userIndex: IndexChoice | null; context?: ToolContext; preferredMirrors?: string[] }) {
  const order = orderSources({ ...input, noMirrorReason: input.context && input.adapter.noMirrorReason?.(input.context) })
  const index = order.sources.findIndex(entry => !entry.requested)
  return { primary: order.sources[index]!.source, fallbacks: order.sources.filter((_, at) => at !== index).map(entry => entry.source), upstream: order.upstream, noSwitchReason: order.noSwitchReason, warnings: order.warnings }
}

/** The command of one attempt on `source`, as planRun builds it (src/plan/attempt.ts), with the cache bypassed if asked. */
export function buildCommand(input: { invocation: Invocation; config: Config; userKnobs: boolean }, source: Source, bypassCache: boolean): CommandLine {
  const { adapter, launcher, args } = input.invocation
  const base = { argv: [...launcher, ...args], env: {} }
  if (adapter.classify(args) !== 'network') return base
  const command = planAttempt({ adapter, config: input.config, cwd: '/', base, replaceable: () => false }, { source, reason: 'test' }).command
  return bypassCache && adapter.bypassCache ? adapter.bypassCache(command) : command
}

/** The plan of `<adapter.name> <args>` run in `cwd` with `config`, as runTool makes it (no state: no ranking). */
export function planIn(adapter: ToolAdapter, args: string, cwd: string, config: Record<string, unknown> = {}, extra: { env?: NodeJS.ProcessEnv; home?: string; mirrors?: string[]; launcher?: string[] } = {}) {
  const invocation = { tool: adapter.name as ToolName, adapter, launcher: extra.launcher ?? [adapter.name], args: args.split(' ').filter(Boolean), executable: `/usr/bin/${adapter.name}` }
  const request = gatherPlanRequest(invocation, { env: extra.env ?? {}, cwd, home: extra.home ?? cwd }, { config: configSchema.parse(config), preferredMirrors: extra.mirrors })
  return planRun(request)
}
