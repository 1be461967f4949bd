import type { RelaySource } from './types.js'

/**
 * What a request to the relay is, by its path: an index page (rewritten), a file (streamed, resumed, verified),
 * something else (npm's audit endpoint and the like: passed to the index alone, unchanged), or a form the relay
 * cannot carry (conda's zstd repodata, jlap patches): answered 404, which the tool takes as "not offered here" and
 * asks for the form the relay reads.
 */
export type Route =
  | { kind: 'page'; upstream: (source: RelaySource) => string }
  | { kind: 'file'; path: string; upstream: (source: RelaySource) => string }
  | { kind: 'other'; upstream: (source: RelaySource) => string }
  | { kind: 'absent'; why: string }

export const onFiles = (path: string) => (source: RelaySource) => `${source.files}${path}`
export const onPages = (path: string) => (source: RelaySource) => `${source.pages}${path}`
