import type { Config } from '../config/schema.js'
import { knownMirrors, listedMirrorEntries } from '../config/effective-mirrors.js'
import { MIRRORS } from '../mirrors/index.js'
import type { Mirror } from '../mirrors/types.js'
import { hasCredentials } from '../redact.js'
import { carriesCredentials } from '../tools/source/credentials.js'
import type { IndexChoice, SourceBeside, ToolAdapter } from '../tools/types.js'
import { hostOf, isLocalPath, isLoopback, labelOf, sameIndex } from '../url.js'
import { publicIndexes } from '../mirrors/public-indexes.js'
import type { Source } from './types.js'

export interface SourceInput {
  adapter: ToolAdapter
  config: Config
  userIndex: IndexChoice | null
  /** `--mirror` values: catalog names or URLs, tried first, in order. */
  preferredMirrors?: readonly string[]
  /** ToolAdapter.noMirrorReason for this invocation (poetry; uv --frozen). */
  noMirrorReason?: string
  /** ToolAdapter.sourcesBeside for this invocation: pip's extra indexes and find-links. */
  sourcesBeside?: readonly SourceBeside[]
}

export interface SourceOrder {
  /** In order; `requested` marks `--mirror` values, which keep their place whatever the state says. */
  sources: { source: Source; reason: string; requested?: boolean }[]
  upstream?: Source
  noSwitchReason?: string
  warnings: string[]
  /** May a registry a lockfile pins be replaced by a mirror? Only a public index or one named in the config. */
  replaceable(url: string): boolean
  /**
   * A source of the person's own beside a public index: the relay's pages stay on the index. Where the tool merges
   * names (pip's extra index) no attempt goes to a mirror either, whose pages could shadow them; the mirrors are
   * then listed for the relay, which may take files from them that the index's pages vouch for (docs/relay.md).
   */
  privateBeside?: { reason: string; mirrors: Source[] }
}

/** Config mirror entries (catalog names or URLs) as Sources; plain-http mirrors need allowInsecure. */
function resolveMirrors(entries: readonly string[], catalog: readonly Mirror[], config: Config, warn: (m: string) => void, adapter: ToolAdapter): Source[] {
  const sources: Source[] = []
  for (const entry of entries) {
    const named = catalog.find(mirror => mirror.id === entry)
    const url = named?.url ?? entry
    if (!named && !/^https?:\/\//i.test(entry)) {
      warn(`Mirror "${entry}" is neither a catalog name (${catalog.map(m => m.id).join(', ')}) nor a URL: skipped.`)
      continue
    }
    // Credentials never go on a child's command line: a tool that takes them no other way skips the mirror.
    if (hasCredentials(url) && !carriesCredentials(adapter, url)) {
      warn(`Mirror ${labelOf(url)} needs credentials, which ${adapter.name} can only take on its command line, where other local users can read them: skipped.`)
      continue
    }
    if (/^(?:sparse\+)?http:/i.test(url) && !isLoopback(url) && !config.allowInsecure) {
      warn(`Mirror ${hostOf(url)} uses plain http: skipped (set "allowInsecure": true to allow it).`)
      continue
    }
    const id = named?.id ?? catalog.find(mirror => sameIndex(mirror.url, url))?.id ?? labelOf(url)
    if (!sources.some(source => sameIndex(source.url!, url))) sources.push({ id, url, indexUrl: url, kind: 'mirror', label: `mirror ${id}` })
  }
  return sources
}

const sole = (source: Source, reason: string, noSwitchReason: string, warnings: string[]): Omit<SourceOrder, 'replaceable'> =>
  ({ sources: [{ source, reason }], noSwitchReason, warnings })

/**
 * Which indexes the attempts may use, in order: `--mirror` values first, then the index, then the configured
 * mirrors. The safety rule lives here: an index the user chose that is not the public upstream and not named in
 * resilient's config is never replaced by a mirror (dependency confusion).
 */
export function orderSources(input: SourceInput): SourceOrder {
  const { adapter, config, userIndex, preferredMirrors = [] } = input
  const warnings: string[] = []
  const warn = (message: string) => warnings.push(message)
  const catalog = MIRRORS[adapter.ecosystem]
  const section = config[adapter.ecosystem]
  const configuredIndex = section?.index
  const known = knownMirrors(adapter.ecosystem, config)
  const pinned = config.mirrors ? resolveMirrors(preferredMirrors, known, config, warn, adapter) : []
  const listed = config.mirrors ? resolveMirrors(listedMirrorEntries(adapter.ecosystem, config), known, config, warn, adapter) : []
  const listReason = section?.mirrors ? `from ${adapter.ecosystem}.mirrors in the config` : 'from the built-in mirror catalog'
  const isKnownMirror = (url: string) => catalog.some(m => sameIndex(m.url, url)) || [...pinned, ...listed].some(m => sameIndex(m.url!, url))
  // A configured index that is not a known mirror is the canonical source ("upstream"): a company proxy, or the
  // local index of a test. Not-found on a mirror is retried there once.
  const configuredIsMirror = Boolean(configuredIndex && isKnownMirror(configuredIndex))
  const upstreamIndex = configuredIndex && !configuredIsMirror ? configuredIndex : adapter.defaultIndex
  const upstream: Source = { id: 'upstream', url: upstreamIndex, indexUrl: upstreamIndex, kind: 'upstream', label: labelOf(upstreamIndex) }
  if (configuredIndex && hasCredentials(configuredIndex) && !carriesCredentials(adapter, configuredIndex)) {
    warn(`${adapter.name} can take the credentials of ${labelOf(configuredIndex)} only on its command line, where other local users can read them: they are left off. Put them in ${adapter.name}'s own config instead.`)
  }
  const publicUrls = publicIndexes(adapter.ecosystem, config, [adapter.defaultIndex, ...[...pinned, ...listed].map(m => m.url!)])
  const isKnown = (url: string, same: (a: string, b: string) => boolean) => !isLocalPath(url) && publicUrls.some(other => same(url, other))
  // A lockfile pin is compared path and all: one host often serves a public and a private repository.
  const replaceable = (url: string) => isKnown(url, sameIndex)
  const ignoredMirror = (why: string) => pinned.length && warn(`--mirror ${preferredMirrors.join(', ')} is not used: ${why}.`)
  const order = (primary: Source, reason: string, extra: Partial<SourceOrder> = {}): SourceOrder => {
    if (input.noMirrorReason) {
      ignoredMirror(input.noMirrorReason)
      // The tool itself cannot be pointed elsewhere for this invocation (poetry; uv --frozen): its own index only.
      const own: Source = primary.url ? { id: 'upstream', url: undefined, kind: 'upstream', label: labelOf(adapter.defaultIndex), indexUrl: adapter.defaultIndex } : primary
      return { ...sole(own, reason, input.noMirrorReason, warnings), replaceable }
    }
    const rest = listed.filter(mirror => !sameIndex(mirror.url!, primary.indexUrl!) && !pinned.some(p => sameIndex(p.url!, mirror.url!)))
    const owns = input.sourcesBeside?.filter(beside => !beside.url || !isKnown(beside.url, sameIndex)) ?? []
    const own = owns.find(beside => beside.merged) ?? owns[0]
    const what = own && (own.url ? `${isLocalPath(own.url) ? own.url : labelOf(own.url)} (${own.origin})` : own.origin)
    if (own?.merged) {
      const why = `${adapter.name} also reads names from ${what}, which a mirror could shadow, so nothing is asked of a mirror by name (dependency confusion)`
      ignoredMirror(why)
      const mirrors = [...pinned, ...rest].filter(mirror => !sameIndex(mirror.url!, primary.indexUrl!))
      return { ...sole(primary, reason, why, warnings), replaceable, ...extra, privateBeside: { reason: why, mirrors } }
    }
    const pagesStay = own && { reason: `${adapter.name} also uses ${what}`, mirrors: [] }
    const sources = [...pinned.filter(mirror => !sameIndex(mirror.url!, primary.indexUrl!)).map(source => ({ source, reason: '--mirror, as you asked', requested: true })),
      { source: primary, reason }, ...rest.map(source => ({ source, reason: listReason }))]
    return { sources, warnings, replaceable, ...extra, ...(pagesStay && { privateBeside: pagesStay }) }
  }

  if (userIndex) {
    const where = `(${userIndex.origin})`
    if (isLocalPath(userIndex.url) && !userIndex.privateBecause) {
      const why = `the command uses a local index ${where}; resilient retries it but never replaces it`
      ignoredMirror(why)
      return { ...sole({ id: 'primary', url: undefined, kind: 'local', label: `local index ${where}` }, `your local index ${where}`, why, warnings), replaceable }
    }
    const host = labelOf(userIndex.url)
    // Fail closed: what resilient could not read, or an index the user holds credentials for, is never replaced.
    if (userIndex.privateBecause && !(configuredIndex && sameIndex(userIndex.url, configuredIndex))) {
      const why = `${userIndex.privateBecause}, so installs are never sent elsewhere (dependency confusion)`
      ignoredMirror(why)
      return { ...sole({ id: 'primary', url: undefined, kind: 'private', label: `your index ${host || '(unknown)'}`, indexUrl: userIndex.url || undefined }, `your index ${where}`, why, warnings), replaceable }
    }
    if (!isKnown(userIndex.url, sameIndex)) {
      const why = `${host} ${where} is not a public index known to resilient, so installs are never sent elsewhere (dependency confusion); name it in the config's "index" to allow mirrors`
      ignoredMirror(why)
      return { ...sole({ id: 'primary', url: undefined, kind: 'private', label: `your index ${host}`, indexUrl: userIndex.url }, `your index ${where}`, why, warnings), replaceable }
    }
    const isUpstream = sameIndex(userIndex.url, upstreamIndex)
    const primary: Source = { id: 'primary', url: undefined, kind: isUpstream ? 'upstream' : 'mirror', label: host, indexUrl: userIndex.url }
    if (userIndex.locked) {
      const why = `the index is set inside ${userIndex.origin}, which overrides any command-line index`
      ignoredMirror(why)
      return { ...sole(primary, `your index ${where}`, why, warnings), replaceable }
    }
    return order(primary, `your index ${where}`, { upstream: isUpstream || userIndex.replacesDefault ? undefined : upstream })
  }
  if (configuredIndex && !sameIndex(configuredIndex, adapter.defaultIndex)) {
    const primary: Source = { id: configuredIsMirror ? 'index' : 'upstream', url: configuredIndex, kind: configuredIsMirror ? 'mirror' : 'upstream', label: labelOf(configuredIndex), indexUrl: configuredIndex }
    return order(primary, `the index from the config (${adapter.ecosystem}.index)`, { upstream: configuredIsMirror ? upstream : undefined })
  }
  const primary: Source = { id: 'upstream', url: undefined, kind: 'upstream', label: labelOf(adapter.defaultIndex), indexUrl: adapter.defaultIndex }
  return order(primary, `${adapter.name}'s default index (none chosen)`)
}
