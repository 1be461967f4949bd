import type { Config } from '../config/schema.js'
import { MIRRORS, UPSTREAMS } from '../mirrors/index.js'
import { knownMirrors } from '../mirrors/effective.js'
import type { Mirror } from '../mirrors/types.js'
import type { IndexChoice, ToolAdapter, ToolContext } from '../tools/types.js'
import type { Source, SourcePlan } from './types.js'

export function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase()
  } catch {
    return undefined
  }
}

/** `pypi.org`, or `127.0.0.1:8080` when the port says which of several servers on one host it is. */
export function labelOf(url: string): string {
  try {
    const parsed = new URL(url)
    return parsed.port ? `${parsed.hostname}:${parsed.port}` : parsed.hostname
  } catch {
    return url
  }
}

export function isLoopback(url: string): boolean {
  const host = hostOf(url)
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host ?? '')
}

function isLocalPath(url: string): boolean {
  return url === 'none' || url.startsWith('file:') || !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)
}

function hostAndPort(url: string): string | undefined {
  try {
    const parsed = new URL(url)
    return `${parsed.hostname.toLowerCase()}:${parsed.port}`
  } catch {
    return undefined
  }
}

/** Same server: host and port (a mirror's legacy and current paths count as one; two local test servers do not). */
export function sameIndex(a: string, b: string): boolean {
  return hostAndPort(a) !== undefined && hostAndPort(a) === hostAndPort(b)
}

export interface PlanInput {
  adapter: ToolAdapter
  config: Config
  userIndex: IndexChoice | null
  /** `--mirror` values: catalog names or URLs, tried first, in order. */
  preferredMirrors?: string[]
  /** Notes for the person (an insecure mirror skipped). */
  warn?: (message: string) => void
  /** The invocation, for adapters that can tell no mirror can serve it (ToolAdapter.noMirrorReason). */
  context?: ToolContext
}

/** Resolves config mirror entries (catalog names or URLs) to Sources; plain-http mirrors need allowInsecure. */
function resolveMirrors(entries: readonly string[], catalog: readonly Mirror[], config: Config, warn: (m: string) => void): Source[] {
  const sources: Source[] = []
  for (const entry of entries) {
    const named = catalog.find(mirror => mirror.id === entry)
    const url = named?.url ?? entry
    if (!named && !/^https?:\/\//i.test(entry)) {
      warn(`Mirror "${entry}" is neither a catalog name (${catalog.map(m => m.id).join(', ')}) nor a URL: skipped.`)
      continue
    }
    if (url.startsWith('http:') && !isLoopback(url) && !config.allowInsecure) {
      warn(`Mirror ${hostOf(url)} uses plain http: skipped (set "allowInsecure": true to allow it).`)
      continue
    }
    const id = named?.id ?? catalog.find(mirror => sameIndex(mirror.url, url))?.id ?? labelOf(url)
    if (!sources.some(source => source.url === url)) sources.push({ id, url, indexUrl: url, kind: 'mirror', label: `mirror ${id}` })
  }
  return sources
}

/**
 * Which indexes the attempts may use, in order. The safety rule lives here: an index the user chose that is not
 * the public upstream and not named in resilient's config is never replaced by a mirror (dependency confusion).
 */
export function planSources(input: PlanInput): SourcePlan {
  const plan = planIndexes(input)
  const noMirror = input.context && input.adapter.noMirrorReason?.(input.context)
  if (!noMirror || plan.noSwitchReason) return plan
  // The tool itself cannot be pointed elsewhere for this invocation (poetry; uv --frozen): retry its own index only.
  const { defaultIndex } = input.adapter
  const primary: Source = plan.primary.url ? { id: 'upstream', url: undefined, kind: 'upstream', label: hostOf(defaultIndex) ?? defaultIndex, indexUrl: defaultIndex } : plan.primary
  return { primary, fallbacks: [], noSwitchReason: noMirror }
}

function planIndexes({ adapter, config, userIndex, preferredMirrors = [], warn = () => {} }: PlanInput): SourcePlan {
  const catalog = MIRRORS[adapter.ecosystem]
  const section = config[adapter.ecosystem]
  const upstreamUrl = UPSTREAMS[adapter.ecosystem]
  const configuredIndex = section?.index
  const mirrorEntries = [...preferredMirrors, ...(section?.mirrors ?? catalog.map(mirror => mirror.id))]
  // Your `custom` mirror names resolve like catalog names (resilient mirrors add).
  const mirrors = config.mirrors ? resolveMirrors(mirrorEntries, knownMirrors(adapter.ecosystem, config), config, warn) : []
  // A configured index that is not a known mirror is the canonical source ("upstream"): a company proxy, or the
  // local index of a test. Not-found on a mirror is retried there once.
  const configuredIsMirror = Boolean(configuredIndex && (catalog.some(m => sameIndex(m.url, configuredIndex)) || mirrors.some(m => sameIndex(m.url!, configuredIndex))))
  const upstreamIndex = configuredIndex && !configuredIsMirror ? configuredIndex : adapter.defaultIndex
  const upstream: Source = { id: 'upstream', url: upstreamIndex, indexUrl: upstreamIndex, kind: 'upstream', label: labelOf(upstreamIndex) }

  if (userIndex) {
    const url = userIndex.url
    const where = `(${userIndex.origin})`
    if (isLocalPath(url)) {
      return { primary: { id: 'primary', url: undefined, kind: 'local', label: `local index ${where}` }, fallbacks: [],
        noSwitchReason: `the command uses a local index ${where}; resilient retries it but never replaces it` }
    }
    const known = sameIndex(url, upstreamUrl) || sameIndex(url, adapter.defaultIndex) || (configuredIndex && sameIndex(url, configuredIndex)) ||
      catalog.some(mirror => sameIndex(mirror.url, url)) || mirrors.some(mirror => sameIndex(mirror.url!, url))
    const host = labelOf(url)
    if (!known) {
      return { primary: { id: 'primary', url: undefined, kind: 'private', label: `your index ${host}`, indexUrl: url }, fallbacks: [],
        noSwitchReason: `${host} ${where} is not a public index known to resilient, so installs are never sent elsewhere (dependency confusion); name it in the config's "index" to allow mirrors` }
    }
    const isUpstream = sameIndex(url, upstreamIndex)
    const primary: Source = { id: 'primary', url: undefined, kind: isUpstream ? 'upstream' : 'mirror', label: host, indexUrl: url }
    if (userIndex.locked) {
      return { primary, fallbacks: [], noSwitchReason: `the index is set inside ${userIndex.origin}, which overrides any command-line index` }
    }
    return { primary, fallbacks: mirrors.filter(mirror => !sameIndex(mirror.url!, url)), upstream: isUpstream ? undefined : upstream }
  }

  if (configuredIndex && !sameIndex(configuredIndex, adapter.defaultIndex)) {
    const host = labelOf(configuredIndex)
    const primary: Source = { id: configuredIsMirror ? 'index' : 'upstream', url: configuredIndex, kind: configuredIsMirror ? 'mirror' : 'upstream', label: host, indexUrl: configuredIndex }
    return { primary, fallbacks: mirrors.filter(mirror => !sameIndex(mirror.url!, configuredIndex)), upstream: configuredIsMirror ? upstream : undefined }
  }
  const primary: Source = { id: 'upstream', url: undefined, kind: 'upstream', label: labelOf(adapter.defaultIndex), indexUrl: adapter.defaultIndex }
  return { primary, fallbacks: mirrors.filter(mirror => !sameIndex(mirror.url!, adapter.defaultIndex)) }
}
