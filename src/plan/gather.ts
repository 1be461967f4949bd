import type { Invocation } from '../tools/parse-invocation.js'
import { findUserKnobs } from '../tools/knobs.js'
import { readLockedRegistries } from '../tools/lockfile/lockfile-registry.js'
import type { LockedRegistries, LockfileSupport, ToolContext } from '../tools/types.js'
import type { PlanRequest } from './plan-run.js'

/** What the lockfile pins, and the registries the tool's config sends scoped packages to (never redirected). */
function lockedWithScopes(support: LockfileSupport, tool: ToolContext): LockedRegistries | undefined {
  const locked = readLockedRegistries(support.format, tool.cwd)
  const scoped = locked && support.scopedRegistries?.(tool)
  return locked && scoped?.length ? { ...locked, scoped } : locked
}

/**
 * Reads what planRun needs from the person's files (tool config files, requirement files, the lockfile), through
 * the adapter: the one I/O step before planning. `--mirror` values and offline mode come from the caller.
 */
export function gatherPlanRequest(invocation: Invocation, context: Omit<ToolContext, 'args' | 'executable'>, rest: Pick<PlanRequest, 'config' | 'preferredMirrors' | 'offline' | 'proxies' | 'secrets'>): PlanRequest & { knobsOrigin?: string } {
  const { adapter } = invocation
  const tool: ToolContext = { ...context, args: invocation.args, executable: invocation.executable }
  const networked = adapter.classify(invocation.args) === 'network'
  const knobs = findUserKnobs(adapter, tool)
  return {
    invocation, cwd: context.cwd, ...rest,
    userIndex: adapter.findUserIndex(tool),
    sourceUncertain: networked && !rest.offline ? adapter.source?.uncertainty(tool) : undefined,
    userKnobs: knobs.userSet,
    knobsOrigin: knobs.origin,
    noMirrorReason: adapter.noMirrorReason?.(tool),
    sourcesBeside: networked && !rest.offline ? adapter.sourcesBeside?.(tool) : undefined,
    locked: networked && !rest.offline && adapter.lockfile ? lockedWithScopes(adapter.lockfile, tool) : undefined,
  }
}
