import { basename } from 'node:path'
import type { Config } from '../config/schema.js'
import type { OfflineMode } from './offline.js'
import type { Invocation } from '../tools/parse-invocation.js'
import type { SecretsContext } from '../tools/source/credentials.js'
import type { IndexChoice, LockedRegistries, SourceBeside } from '../tools/types.js'
import { indexKey } from '../url.js'
import { planAttempt, type AttemptContext } from './attempt.js'
import { orderSources } from './sources.js'
import type { Host, PlannedAttempt, RunPlan } from './types.js'

/** Everything planRun needs, read beforehand (plan/gather.ts): planRun itself does no I/O. */
export interface PlanRequest {
  invocation: Invocation
  cwd: string
  config: Config
  /** The index the person chose (ToolAdapter.findUserIndex), or null. */
  userIndex: IndexChoice | null
  /** The person set the tool's own timeouts/retries (ToolAdapter.knobs, src/tools/knobs.ts). */
  userKnobs: boolean
  /** `--mirror` values, tried first in order. */
  preferredMirrors?: readonly string[]
  /** ToolAdapter.noMirrorReason for this invocation. */
  noMirrorReason?: string
  /** ToolAdapter.sourcesBeside for this invocation. */
  sourcesBeside?: SourceBeside[]
  /** What the project's lockfile pins (ToolAdapter.lockfile). */
  locked?: LockedRegistries
  /** Offline mode: the arguments and variables that keep the tool off the network. */
  offline?: OfflineMode
  /** The proxies in the environment (src/proxies.ts), for the diagnosis of each attempt. */
  proxies?: readonly string[]
  /** Where credentials go instead of argv (the run's private directory); absent, they are left off. */
  secrets?: SecretsContext
  /** Why `userIndex` may not be what the tool uses (ToolAdapter.source): the tool is asked before anything leaves it. */
  sourceUncertain?: string
}

/** `package-lock.json pins 4 packages to npm.corp.example: <the tool's consequence>`, for hosts still contacted. */
function describeLocked(request: PlanRequest, attempts: readonly PlannedAttempt[]): string | undefined {
  const support = request.invocation.adapter.lockfile
  const hosts = new Map<string, Host>()
  for (const host of attempts.flatMap(attempt => attempt.hosts)) if (host.role === 'lockfile') hosts.set(host.key, host)
  if (!support || !request.locked || hosts.size === 0) return undefined
  const count = request.locked.registries.filter(entry => hosts.has(indexKey(entry.prefix))).reduce((sum, entry) => sum + entry.count, 0)
  const names = [...hosts.values()].map(host => host.host)
  const declined = [...new Set(attempts.flatMap(attempt => attempt.declined ?? []))]
  return `${basename(request.locked.file)} pins ${count} package${count === 1 ? '' : 's'} to ${names.slice(0, 3).join(', ')}${names.length > 3 ? ' and others' : ''}: ${support.consequence}${declined.map(why => ` ${why}.`).join('')}`
}

/**
 * The plan of one run, pure: the ordered attempts, each with its command, the hosts it will contact and the reason
 * for its place. A command that does not talk to an index gets one attempt, untouched; offline mode one attempt
 * kept off the network. rankSources (plan/rank.ts) then orders it by what this network remembers.
 */
export function planRun(request: PlanRequest): RunPlan {
  const { invocation, cwd, config } = request
  const { adapter } = invocation
  const base = { argv: [...invocation.launcher, ...invocation.args], env: {} }
  const networked = adapter.classify(invocation.args) === 'network'
  const limits = { maxAttempts: config.maxAttempts, maxTotalSeconds: config.maxTotalSeconds, maxWaitSeconds: config.maxWaitSeconds }
  const shared = { invocation, cwd, networked, userIndex: request.userIndex, userKnobs: request.userKnobs, learned: [], limits, ...(request.proxies && { proxies: request.proxies }) }
  if (!networked) {
    const source = { id: 'primary', url: undefined, kind: 'local' as const, label: 'the command as typed' }
    return { ...shared, primary: source, attempts: [{ source, command: base, cwd, hosts: [], reason: 'not a network command: it runs once, untouched' }], warnings: [] }
  }
  if (request.offline) {
    const { args, env, where } = request.offline
    const source = { id: 'offline', url: undefined, kind: 'local' as const, label: `offline: ${where}` }
    const command = { argv: [...base.argv, ...args], env: { ...env } }
    return { ...shared, userKnobs: true, primary: source, attempts: [{ source, command, cwd, hosts: [], reason: `offline mode: ${where} only` }],
      noSwitchReason: 'offline mode makes no network attempt', offlineWhere: where, warnings: [] }
  }
  const order = orderSources({ adapter, config, userIndex: request.userIndex, preferredMirrors: request.preferredMirrors, noMirrorReason: request.noMirrorReason, sourcesBeside: request.sourcesBeside })
  const context: AttemptContext = { adapter, config, cwd, base, locked: request.locked, replaceable: order.replaceable, secrets: request.secrets }
  const attempts = order.sources.map(entry => planAttempt(context, entry))
  // A version a mirror lacks is asked of the index once: the public upstream when the plan's index is itself a
  // mirror, else the plan's own index, whatever it is (--mirror, the breaker or the learned order may put a mirror
  // first). Asking the person's own index is always safe.
  const index = attempts.find(attempt => !attempt.requested)!
  const upstream = order.upstream ? planAttempt(context, { source: order.upstream, reason: 'the upstream index, for a package a mirror lacks' }) : attempts.length > 1 ? index : undefined
  const primary = index.source
  // Only a source that may be left or probed needs confirming: a private or local one is kept to as it is.
  const unconfirmed = request.sourceUncertain && (primary.kind === 'upstream' || primary.kind === 'mirror') ? request.sourceUncertain : undefined
  return { ...shared, primary, attempts, ...(upstream && { upstream }), noSwitchReason: order.noSwitchReason, ...(order.privateBeside && { privateBeside: order.privateBeside }), lockedSources: describeLocked(request, attempts), warnings: order.warnings, ...(unconfirmed && { unconfirmed }) }
}
