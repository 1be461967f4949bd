import { urlWithoutSecrets } from './secrets/url.js'

/**
 * The one place that parses, compares and prints index URLs. Never throws: a value that is not a URL is said so.
 * Hosts are compared as WHATWG URL normalises them: lower case, default ports dropped, IPv6 in brackets (`[::1]`).
 */

/** An index URL parsed, cargo's `sparse+https://` too; undefined when it is not a URL. */
export function parseIndexUrl(url: string): URL | undefined {
  const inner = url.replace(/^sparse\+/i, '')
  return URL.canParse(inner) ? new URL(inner) : undefined
}

/** `http(s)://` or cargo's `sparse+https://`: an index on a server, not a path, `file:` URL or `none`. */
export function isWebUrl(url: string): boolean {
  return /^(sparse\+)?https?:\/\//i.test(url)
}

/** The host name alone, lower case (`pypi.org`, `[::1]`). */
export function hostOf(url: string): string | undefined {
  return parseIndexUrl(url)?.hostname.toLowerCase()
}

/** Host and port, the port only when it is not the scheme's default: `pypi.org`, `127.0.0.1:8080`. */
export function hostAndPortOf(url: string): string | undefined {
  return parseIndexUrl(url)?.host.toLowerCase()
}

/** The bare name of a `host:port` label (`[::1]:8080` → `::1`), to compare with a host a tool's message names. */
export function nameOfHostLabel(label: string): string {
  return label.replace(/:\d+$/, '').replace(/^\[|\]$/g, '').toLowerCase()
}

/** The index a source really talks to (`indexUrl`: the user's own when it applies none), else the URL it applies. */
export function indexUrlOf(source: { url?: string | undefined; indexUrl?: string | undefined }): string | undefined {
  return source.indexUrl ?? source.url
}

/** `mirrors.aliyun.com`, `127.0.0.1:8080`: the host a source talks to, or its label when it names no URL. */
export function hostLabelOfSource(source: { url?: string | undefined; indexUrl?: string | undefined; label: string }): string {
  return labelOf(indexUrlOf(source) ?? source.label)
}

/** `pypi.org`, or `127.0.0.1:8080` when the port says which of several servers on one host it is. */
export function labelOf(url: string): string {
  return hostAndPortOf(url) ?? url
}

export function isLoopback(url: string): boolean {
  const host = hostOf(url)
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host ?? '')
}

/** `none` (--no-index), `file:` URLs and paths: an index on this machine. */
export function isLocalPath(url: string): boolean {
  return url === 'none' || url.startsWith('file:') || !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)
}

/**
 * The same index: scheme, host, port and path, credentials, query and a trailing slash aside. One host often serves
 * a public and a private repository under different paths (Artifactory, Nexus, devpi, Verdaccio), so a repository
 * under another path on a known index's host is another index: the user's own. Used by the plan, the lockfile
 * handling, mirror health and the probes alike.
 */
export function sameIndex(a: string, b: string): boolean {
  if (!parseIndexUrl(a) || !parseIndexUrl(b)) return false
  return indexIdentity(a) === indexIdentity(b)
}

/**
 * What sameIndex compares: indexKey without cargo's `sparse+` (the protocol, not another index) and with http and
 * https as one (the same service on its two default ports: `http://mirrors.tuna…/anaconda/cloud` is the catalog's
 * tuna). An explicit port, a path or another host still makes another index.
 */
function indexIdentity(url: string): string {
  return indexKey(url).replace(/^sparse\+/i, '').replace(/^https?:/i, 'http(s):')
}

/**
 * `url` lies under the index `base` (same scheme, host and port, its path inside base's, whole segments only): a
 * conda channel under a channel alias. Not the same index: sameIndex decides that.
 */
export function isUnderIndex(url: string, base: string): boolean {
  if (!parseIndexUrl(url) || !parseIndexUrl(base)) return false
  const [inner, outer] = [indexIdentity(url), indexIdentity(base)]
  return inner === outer || inner!.startsWith(`${outer}/`)
}

/**
 * An index's identity, and the form outcomes are booked under: scheme, host, port and path, without credentials, a
 * trailing slash or the default port (the same string as before paths counted, so stored health stays readable).
 */
export function indexKey(url: string): string {
  // No userinfo, query, fragment or token path segment (`/t/<token>/`): keys are stored in the state file.
  return urlWithoutSecrets(url).replace(/\/+$/, '')
}

/**
 * The registry prefix of an npm-style tarball URL (`https://host/path/` before `<name>/-/<file>.tgz` or
 * `@scope/name/-/...`), credentials removed; undefined when the URL is not laid out that way.
 */
export function registryPrefixOf(tarballUrl: string): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(tarballUrl)
  } catch {
    return undefined
  }
  parsed.username = ''
  parsed.password = ''
  parsed.hash = ''
  parsed.search = ''
  const segments = parsed.pathname.split('/')
  const dash = segments.lastIndexOf('-')
  if (dash < 2) return undefined
  const nameStart = segments[dash - 2]?.startsWith('@') ? dash - 2 : dash - 1
  parsed.pathname = `${segments.slice(0, nameStart).join('/')}/`
  return parsed.toString()
}
