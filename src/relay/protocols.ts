import type { RelayProtocolName, RelaySource } from './types.js'

/**
 * What a request to the relay is, by its path: an index page (rewritten), a file (streamed, resumed, verified), or
 * something else (npm's audit endpoint and the like: passed to the index alone, unchanged).
 */
export type Route =
  | { kind: 'page'; format: 'pypi' | 'packument'; upstream: (source: RelaySource) => string }
  | { kind: 'file'; path: string; upstream: (source: RelaySource) => string }
  | { kind: 'other'; upstream: (source: RelaySource) => string }

export interface RelayProtocol {
  name: RelayProtocolName
  /** The URL the tool is given as its index. */
  indexUrl(base: string): string
  /** `path` is the request's path and query, without the leading slash, already checked by isSafePath. */
  route(path: string, method: string): Route
}

const onFiles = (path: string) => (source: RelaySource) => `${source.files}${path}`
const onPages = (path: string) => (source: RelaySource) => `${source.pages}${path}`

/** PEP 503/691: the index at `simple/`, a project's page at `simple/<name>/`; anything else is a file under the root. */
export const PYPI_PROTOCOL: RelayProtocol = {
  name: 'pypi',
  indexUrl: base => `${base}simple/`,
  route(path, method) {
    const page = /^simple\/(?:([^/?]+)\/?)?(?:\?.*)?$/.exec(path)
    if (method !== 'GET' && method !== 'HEAD') return { kind: 'other', upstream: onFiles(path) }
    return page ? { kind: 'page', format: 'pypi', upstream: onPages(path.slice('simple/'.length)) } : { kind: 'file', path, upstream: onFiles(path) }
  },
}

/**
 * The npm registry: `<name>/-/<file>.tgz` (scoped: `@scope/<name>/-/...`) is a tarball; `<name>`, `@scope%2f<name>`
 * and `<name>/<version>` are packuments; `-/...` (audit, search, ping) and every other method go to the index alone.
 */
export const NPM_PROTOCOL: RelayProtocol = {
  name: 'npm',
  indexUrl: base => base,
  route(path, method) {
    if (method !== 'GET' && method !== 'HEAD') return { kind: 'other', upstream: onPages(path) }
    if (/^(?:@[^/]+\/)?[^/@]+\/-\/[^/]+\.tgz(?:\?.*)?$/.test(path)) return { kind: 'file', path, upstream: onFiles(path) }
    if (path.startsWith('-/')) return { kind: 'other', upstream: onPages(path) }
    return { kind: 'page', format: 'packument', upstream: onPages(path) }
  },
}

export const PROTOCOLS = { pypi: PYPI_PROTOCOL, npm: NPM_PROTOCOL } satisfies Record<RelayProtocolName, RelayProtocol>
