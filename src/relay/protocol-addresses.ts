import type { RelayProtocolName } from './types.js'

/**
 * What a run needs of an index protocol before the relay's code is loaded (src/plan/relay.ts plans the tool's
 * attempt with it, src/run/relay.ts binds the socket): where the tool is pointed, where a source's files are, and
 * how the relay is reached. Each protocol module (protocol-pypi.ts...) is built on its entry.
 */
export interface ProtocolAddresses {
  /** The URL the tool is given as its index. */
  indexUrl(base: string): string
  /** Where a source's file links are relative to, from its index URL (a source may say otherwise: PyPI's files host). */
  filesRoot(indexUrl: string): string
  /**
   * The secret may come in the path, as `t/<secret>/` before the index's own path: conda's token form (anaconda.org's
   * `/t/<token>/`), which conda, libmamba and rattler take in a channel URL and mask in everything they print.
   */
  secretInPath?: boolean
  /**
   * The relay serves this protocol over https (src/relay/certificate.ts): its tools send credentials, the relay's
   * secret included, over https only (go).
   */
  tls?: true
}

const withSlash = (url: string) => url.endsWith('/') ? url : `${url}/`

export const PROTOCOL_ADDRESSES: Record<RelayProtocolName, ProtocolAddresses> = {
  // PEP 503/691: the index at `simple/`; files under its parent.
  pypi: { indexUrl: base => `${base}simple/`, filesRoot: indexUrl => new URL('..', withSlash(indexUrl)).href },
  npm: { indexUrl: base => base, filesRoot: withSlash },
  goproxy: { indexUrl: base => base, filesRoot: withSlash, tls: true },
  cargo: { indexUrl: base => `sparse+${base}`, filesRoot: indexUrl => indexUrl.replace(/^sparse\+/, '').replace(/\/?$/, '/') },
  conda: { indexUrl: base => base, filesRoot: withSlash, secretInPath: true },
}
