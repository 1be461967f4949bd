import { effectiveMirrors } from '../../config/effective-mirrors.js'
import type { Config } from '../../config/schema.js'
import type { Diagnosis } from '../../diagnose/types.js'
import { indexHosts } from '../../diagnose/facts.js'
import { publicIndexes } from '../../mirrors/public-indexes.js'
import { TOOLS } from '../../tools/index.js'
import type { ToolAdapter } from '../../tools/types.js'
import { hostOf } from '../../url.js'

/** Hosts the diagnosis itself knows to be public: a catalog or known mirror, an upstream, where indexes keep files. */
const PUBLIC_ROLES = new Set(['mirror', 'upstream', 'file-host'])

/**
 * The index a log's failure is about, and whether it may be replaced by a mirror, by the rule a run follows
 * (plan/sources.ts): a public index resilient knows (the upstream, the catalog's mirrors, the config's index and
 * mirrors, the tool's default), or a host the diagnosis knows to be public. Any other host is the person's own index,
 * a private or a loopback one, whose installs resilient never sends elsewhere. The host is the one the diagnosis
 * blames, else the index the log names (`Looking in indexes:`); undefined when there is none, or when the failure is
 * the proxy's.
 */
export function failingIndex(diagnosis: Diagnosis, tool: string | null, config: Config, lines: readonly string[]): { host: string; isPublic: boolean } | undefined {
  const { hostRole, viaProxy } = diagnosis.facts
  if (viaProxy || hostRole === 'proxy') return undefined
  const named = [...indexHosts({ lines: [...lines] })]
  const host = diagnosis.facts.host ?? (named.length === 1 ? named[0] : undefined)
  if (!host) return undefined
  if (host === diagnosis.facts.host && hostRole && PUBLIC_ROLES.has(hostRole)) return { host, isPublic: true }
  const adapters: ToolAdapter[] = tool && tool in TOOLS ? [TOOLS[tool as keyof typeof TOOLS]] : Object.values(TOOLS)
  const isPublic = adapters.some(adapter => publicIndexes(adapter.ecosystem, config, [adapter.defaultIndex, ...effectiveMirrors(adapter.ecosystem, config).map(mirror => mirror.url)])
    .some(url => hostOf(url) === host.toLowerCase()))
  return { host, isPublic }
}
