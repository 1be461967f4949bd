import type { RelaySource } from './types.js'

/**
 * What a request to the relay is, by its path: an index page (rewritten), a file (streamed, resumed, verified), or
 * something else (npm's audit endpoint and the like: passed to the index alone, unchanged).
 */
export type Route =
  | { kind: 'page'; upstream: UpstreamOf }
  | { kind: 'file'; path: string; upstream: UpstreamOf }
  | { kind: 'other'; upstream: UpstreamOf }

/** A source's URL for the request; a promise where the source must be asked first where its files are (cargo's `dl`). */
export type UpstreamOf = (source: RelaySource) => string | Promise<string>

export const onFiles = (path: string) => (source: RelaySource) => `${source.files}${path}`
export const onPages = (path: string) => (source: RelaySource) => `${source.pages}${path}`
