import type { ServerResponse } from 'node:http'
import type { RelayContext, RelayProtocol } from './context.js'
import { relayPathOf } from './links.js'
import { streamPage } from './page-transfer.js'
import { PROTOCOL_ADDRESSES } from './protocol-addresses.js'
import { onFiles, onPages, type Route } from './protocols.js'
import { RepodataScanner } from './repodata-scanner.js'
import type { RelaySource } from './types.js'
import type { UpstreamResponse } from './upstream.js'

/*
 * A conda channel, as conda 26.7 (conda/gateways/repodata/zstd.py, connection/download.py), libmamba 2.8
 * (core/subdirdata.cpp) and rattler (rattler_repodata_gateway/src/fetch) ask for it, every path relative to the
 * channel alias (`conda-forge/linux-64/repodata.json`):
 * - `<channel>/<subdir>/repodata.json` and `current_repodata.json`: pages (what exists and each package's sha256),
 *   from the index; streamed to the tool as they come, their digests learned on the way.
 * - `repodata.json.zst` and `.bz2`: the same page compressed, which the relay cannot read (Node 20 has no zstd, nor
 *   bzip2) and so cannot learn digests from: answered 404. Every client takes a 4xx on the compressed form as "not
 *   offered" and asks for `repodata.json` (conda: request_url_zstd_state; libmamba and rattler: their has_zst/has_bz2
 *   probes), which the relay fetches gzip-encoded from upstream.
 * - `repodata.jlap`: a patch stream against the repodata the tool has cached, keyed on that file's blake2 hash.
 *   Digests would then come from patches applied to a file the relay never saw: answered 404, and the clients fall
 *   back to the whole repodata (rattler: fetch/jlap; conda dropped jlap for zstd in 25.x).
 * - `repodata_shards.msgpack.zst` and `shards/`: sharded repodata (CEP-16), msgpack in zstd: 404, full repodata again.
 * - `*.conda`, `*.tar.bz2`: packages, files checked against the repodata's sha256, from any source.
 * - anything else (`channeldata.json`, `noarch/index.html`): a page from the index, passed on as it is.
 */
const COMPRESSED = /(?:^|\/)(?:current_)?repodata\.json\.(?:zst|bz2)$/
const JLAP = /(?:^|\/)repodata\.jlap$/
const SHARDS = /(?:^|\/)(?:repodata_shards\.msgpack\.zst|shards\/[^/]+\.msgpack\.zst)$/
const REPODATA = /(?:^|\/)(?:current_)?repodata\.json$/
const PACKAGE = /\.(?:conda|tar\.bz2)$/

function routeConda(path: string, method: string): Route {
  if (method !== 'GET' && method !== 'HEAD') return { kind: 'other', upstream: onPages(path) }
  const bare = path.split('?')[0]!
  if (COMPRESSED.test(bare)) return { kind: 'absent', why: 'compressed repodata is not relayed (the relay reads repodata.json to learn package digests)' }
  if (JLAP.test(bare)) return { kind: 'absent', why: 'jlap patches are not relayed (they patch a repodata the relay never saw)' }
  if (SHARDS.test(bare)) return { kind: 'absent', why: 'sharded repodata is not relayed' }
  if (PACKAGE.test(bare)) return { kind: 'file', path, upstream: onFiles(path) }
  return { kind: 'page', upstream: onPages(path) }
}

/**
 * Where the packages a repodata page lists are, on the relay: beside the page (`<channel>/<subdir>/`), or under
 * `info.base_url` (CEP-15) when it names one on a source's root; undefined when that is somewhere the relay is not.
 */
export function packageDirectory(pageUrl: string, baseUrl: string | undefined, roots: readonly string[]): string | undefined {
  const directory = baseUrl === undefined ? new URL('.', pageUrl).href : new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`, pageUrl).href
  return relayPathOf(`${directory}x`, roots)?.slice(0, -1)
}

/** A repodata page streamed to the tool unchanged, each package's sha256 learned under its relay path on the way. */
function sendCondaPage(context: RelayContext, response: UpstreamResponse, tool: ServerResponse, source: RelaySource): Promise<boolean> {
  const isRepodata = REPODATA.test(new URL(response.url).pathname)
  let directory = isRepodata ? packageDirectory(response.url, undefined, context.roots) : undefined
  const scanner = new RepodataScanner({
    package: (filename, sha256) => {
      if (directory !== undefined && !filename.includes('/')) context.hashes.learnSha256(`${directory}${filename}`, Buffer.from(sha256, 'hex'))
    },
    baseUrl: url => {
      directory = packageDirectory(response.url, url, context.roots)
    },
  })
  const filter = isRepodata
    ? { feed: (chunk: Buffer) => (scanner.feed(chunk), chunk), end: () => (scanner.end(), '') }
    : { feed: (chunk: Buffer) => chunk, end: () => '' }
  return streamPage(context, response, tool, source, filter).then(() => true)
}

/**
 * conda channels: the tool is given the relay as its channel alias, `<base>t/<secret>/`, so a channel name
 * (`conda-forge`) becomes `<base>t/<secret>/conda-forge/`; the relay's paths are the index's, below the alias.
 */
export const CONDA_PROTOCOL: RelayProtocol = {
  name: 'conda',
  ...PROTOCOL_ADDRESSES.conda,
  sendPage: sendCondaPage,
  route: routeConda,
}
