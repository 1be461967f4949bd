import type { Config } from '../config/schema.js'
import { UPSTREAM_FILE_HOSTS, UPSTREAMS } from '../mirrors/index.js'
import { applyIndexKeepingSecrets, type SecretsContext } from '../tools/source/credentials.js'
import type { CommandLine, LockedRegistries, PinnedRegistry, ToolAdapter } from '../tools/types.js'
import { indexKey, indexUrlOf, labelOf, sameIndex } from '../url.js'
import type { Host, PlannedAttempt, Source } from './types.js'

/** What every attempt of one plan shares. */
export interface AttemptContext {
  adapter: ToolAdapter
  config: Config
  cwd: string
  /** The command as typed, launcher included. */
  base: CommandLine
  locked?: LockedRegistries
  /** May a pinned registry be replaced by a mirror? (plan/sources.ts) */
  replaceable(url: string): boolean
  /** Where credentials go instead of argv (tools/source/credentials.ts). */
  secrets?: SecretsContext
}

function hostEntry(url: string, key: string, role: Host['role']): Host {
  return { host: labelOf(url), key, role }
}

/** The index an attempt on `source` uses, and where that index sends downloads (booked under the index). */
function indexHosts(adapter: ToolAdapter, indexUrl: string | undefined): Host[] {
  if (!indexUrl || !/^https?:\/\//i.test(indexUrl)) return []
  const key = indexKey(indexUrl)
  const upstream = sameIndex(indexUrl, UPSTREAMS[adapter.ecosystem])
  const files = upstream ? UPSTREAM_FILE_HOSTS[adapter.ecosystem].map(host => hostEntry(`https://${host}/`, key, 'file-host')) : []
  return [hostEntry(indexUrl, key, 'index'), ...files]
}

/**
 * One attempt on `source`: its command (the mirror applied; the tool's own timeouts and retries never touched) and
 * every host it will contact. A
 * registry the lockfile pins is contacted as well, unless the tool sends it to the attempt's registry by itself
 * (npm: registry.npmjs.org) or the adapter can redirect it for this attempt (npm's flag, yarn 1's rewrite).
 */
export function planAttempt(context: AttemptContext, { source, reason, requested }: { source: Source; reason: string; requested?: boolean }): PlannedAttempt {
  const { adapter, config, locked } = context
  let command = context.base
  if (source.url) command = applyIndexKeepingSecrets(adapter, command, source.url, source, context.secrets)
  const indexUrl = source.kind === 'local' ? undefined : indexUrlOf(source) ?? adapter.defaultIndex
  const support = adapter.lockfile
  const pinned: PinnedRegistry[] = !support || !locked || !indexUrl ? []
    : locked.registries.filter(entry => !sameIndex(entry.prefix, indexUrl)).map(entry => ({ ...entry, replaceable: context.replaceable(entry.prefix) }))
  let followed = pinned.filter(entry => support!.follows(entry.prefix)).map(entry => entry.prefix)
  let lockfileRewrite: PlannedAttempt['lockfileRewrite']
  let declined: string | undefined
  if (source.url && pinned.some(entry => entry.replaceable && !support!.follows(entry.prefix))) {
    // A redirect must never reach a private registry: one the lockfile pins, or one a scope is configured to use.
    const keepOut = [...pinned.filter(entry => !entry.replaceable).map(entry => entry.prefix), ...(locked!.scoped ?? []).filter(url => !context.replaceable(url))]
    const redirected = support!.redirect(command, source.url, pinned, locked!.file, keepOut)
    command = redirected.command
    followed = redirected.followed
    lockfileRewrite = redirected.rewrite
    declined = redirected.declined
  }
  const lockHosts = pinned.filter(entry => !followed.includes(entry.prefix)).map(entry => hostEntry(entry.prefix, indexKey(entry.prefix), 'lockfile'))
  return { source, command, cwd: context.cwd, hosts: [...indexHosts(adapter, indexUrl), ...lockHosts], reason: declined ? `${reason} (${declined})` : reason,
    ...(requested && { requested }), ...(lockfileRewrite && { lockfileRewrite }), ...(declined && { declined }) }
}
