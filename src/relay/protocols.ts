import type { RelaySource } from './types.js'

/**
 * What a request to the relay is, by its path: an index page (rewritten), a file (streamed, resumed, verified), or
 * something else (npm's audit endpoint and the like: passed to the index alone, unchanged).
 */
export type Route =
  | { kind: 'page'; upstream: (source: RelaySource) => string }
  | { kind: 'file'; path: string; upstream: (source: RelaySource) => string }
  | { kind: 'other'; upstream: (source: RelaySource) => string }

export const onFiles = (path: string) => (source: RelaySource) => `${source.files}${path}`
export const onPages = (path: string) => (source: RelaySource) => `${source.pages}${path}`
