import { MIRRORS, UPSTREAMS } from '../mirrors/index.js'
import type { Ecosystem } from '../mirrors/types.js'
import { hostOf, isWebUrl } from '../url.js'

type Plain = Record<string, unknown>

const webHostOf = (url: string): string | undefined => isWebUrl(url) ? hostOf(url) : undefined

function urlsOf(section: unknown): string[] {
  const { index, mirrors, custom } = (section ?? {}) as { index?: unknown; mirrors?: unknown; custom?: unknown }
  const values = [index, ...(Array.isArray(mirrors) ? mirrors : []), ...(custom && typeof custom === 'object' ? Object.values(custom) : [])]
  return values.filter((value): value is string => typeof value === 'string')
}

// Loopback is a local proxy (devpi, verdaccio) or a test server: nothing leaves the machine.
const isLoopback = (host: string) => host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)

/**
 * Hosts outside the catalog, loopback and the user's own config that project settings send installs to: a cloned
 * repository's config is an easy place to slip in an index of the author's choosing.
 */
export function redirectingHosts(project: Plain, user: Plain | undefined): string[] {
  const ecosystems = Object.keys(MIRRORS) as Ecosystem[]
  const known = new Set(ecosystems.flatMap(ecosystem => [UPSTREAMS[ecosystem], ...MIRRORS[ecosystem].map(mirror => mirror.url)]).map(webHostOf))
  for (const ecosystem of ecosystems) for (const url of urlsOf(user?.[ecosystem])) known.add(webHostOf(url))
  const hosts = ecosystems.flatMap(ecosystem => urlsOf(project[ecosystem])).map(webHostOf)
    .filter((host): host is string => host !== undefined && !known.has(host) && !isLoopback(host))
  return [...new Set(hosts)]
}
