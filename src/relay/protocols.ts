import type { RelaySource } from './types.js'

/**
 * What a request to the relay is, by its path: an index page (rewritten), a file (streamed, resumed, verified),
 * something else (npm's audit endpoint and the like: passed to the index alone, unchanged), or a form the relay
 * cannot carry (conda's zstd repodata, jlap patches): answered 404, which the tool takes as "not offered here" and
 * asks for the form the relay reads.
 */
export type Route =
  | { kind: 'page'; upstream: UpstreamOf }
  | { kind: 'file'; path: string; upstream: UpstreamOf }
  | { kind: 'other'; upstream: UpstreamOf }
  | { kind: 'absent'; why: string }

/** A source's URL for the request; a promise where the source must be asked first where its files are (cargo's `dl`). */
export type UpstreamOf = (source: RelaySource) => string | Promise<string>

export const onFiles = (path: string) => (source: RelaySource) => `${source.files}${path}`
export const onPages = (path: string) => (source: RelaySource) => `${source.pages}${path}`
