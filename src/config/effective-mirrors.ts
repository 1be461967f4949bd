import type { Config, EcosystemConfig } from './schema.js'
import { MIRRORS, UPSTREAMS } from '../mirrors/index.js'
import type { Ecosystem, Mirror } from '../mirrors/types.js'
import { labelOf, sameIndex } from '../url.js'

/** One index or mirror as the config makes it: what `resilient mirrors list/test` show and probe. */
export interface ListedMirror {
  id: string
  url: string
  /** `index`: tried first; `mirror`: a fallback, at `position`; `unused`: known but not in the list. */
  role: 'index' | 'mirror' | 'unused'
  position?: number
  /** Where it is defined: the built-in catalog, your `custom` names, a URL in the config, the public upstream. */
  origin: 'upstream' | 'catalog' | 'custom' | 'url'
}

/** Your `custom` mirrors of an ecosystem, in the catalog's shape, so that their names work wherever a catalog name does. */
export function customMirrors(section: EcosystemConfig | undefined): Mirror[] {
  return Object.entries(section?.custom ?? {}).map(([id, url]) => ({ id, url, checkedOn: 'added by you' }))
}

/** Catalog first, then custom names (a custom name never shadows a catalog one: the catalog's URL is checked). */
export function knownMirrors(ecosystem: Ecosystem, config: Config): Mirror[] {
  const catalog: Mirror[] = [...MIRRORS[ecosystem]]
  return [...catalog, ...customMirrors(config[ecosystem]).filter(mirror => !catalog.some(known => known.id === mirror.id))]
}

/**
 * The mirrors the config lists for an ecosystem, in order: its `mirrors`, else the built-in catalog, except for an
 * index of the person's own (`index` naming neither the public upstream nor a known mirror), whose names no
 * mirror serves unless the config lists mirrors beside it (fail closed: a company index's names are not public).
 */
export function listedMirrorEntries(ecosystem: Ecosystem, config: Config): readonly string[] {
  const section = config[ecosystem]
  if (section?.mirrors) return section.mirrors
  const index = section?.index
  const own = index && !sameIndex(index, UPSTREAMS[ecosystem]) && !knownMirrors(ecosystem, config).some(mirror => sameIndex(mirror.url, index))
  return own ? [] : MIRRORS[ecosystem].map(mirror => mirror.id)
}

/** The index, the mirrors in the order they are tried, then the known mirrors that are not in the list. */
export function effectiveMirrors(ecosystem: Ecosystem, config: Config): ListedMirror[] {
  const section = config[ecosystem]
  const known = knownMirrors(ecosystem, config)
  const originOf = (id: string): ListedMirror['origin'] => (MIRRORS[ecosystem].some(mirror => mirror.id === id) ? 'catalog' : 'custom')
  const index = section?.index
  const listed: ListedMirror[] = [index
    ? { id: known.find(mirror => sameIndex(mirror.url, index))?.id ?? labelOf(index), url: index, role: 'index', origin: 'url' }
    : { id: 'upstream', url: UPSTREAMS[ecosystem], role: 'index', origin: 'upstream' }]
  for (const entry of listedMirrorEntries(ecosystem, config)) {
    const named = known.find(mirror => mirror.id === entry)
    const url = named?.url ?? (/^https?:\/\//i.test(entry) ? entry : undefined)
    if (!url || listed.some(item => sameIndex(item.url, url))) continue
    const id = named?.id ?? known.find(mirror => sameIndex(mirror.url, url))?.id ?? labelOf(url)
    listed.push({ id, url, role: 'mirror', position: listed.length, origin: named ? originOf(id) : 'url' })
  }
  for (const mirror of known) {
    if (!listed.some(item => sameIndex(item.url, mirror.url))) listed.push({ id: mirror.id, url: mirror.url, role: 'unused', origin: originOf(mirror.id) })
  }
  return listed
}
