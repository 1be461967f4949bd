import { urlWithoutSecrets } from './secrets/url.js'
/** The one place that parses, compares and prints index URLs. Never throws: a value that is not a URL is said so. */

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

/** `none` (--no-index), `file:` URLs and paths: an index on this machine. */
export function isLocalPath(url: string): boolean {
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

/**
 * Same registry: same server and same path (`https://corp/npm/public/` is not `https://corp/npm/private/`). For
 * lockfile pins, where one host often serves several repositories (Artifactory, Nexus).
 */
export function sameRegistry(a: string, b: string): boolean {
  return sameIndex(a, b) && indexKey(a).toLowerCase() === indexKey(b).toLowerCase()
}

/** The form outcomes are booked under: no credentials, no trailing slash, no default port. */
export function indexKey(url: string): string {
  // No userinfo, query, fragment or token path segment (`/t/<token>/`): keys are stored in the state file (issue 21).
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
