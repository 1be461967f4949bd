import { createHash, timingSafeEqual } from 'node:crypto'
import type { RelayCertificate } from './certificate.js'
import type { RelayContext } from './context.js'
import { HashBook } from './expected-hash.js'
import { fetchAhead, handleRequest } from './handle-request.js'
import { bindRelay, type BoundRelay } from './listen.js'
import { LookAhead, type LookAheadLimits, type LookAheadSeeds } from './look-ahead.js'
import { DEFAULT_HEDGE, LatencyBook } from './hedge-delay.js'
import { Ledger } from './ledger.js'
import { PageAuthority, type MirrorPages, type PageSettings } from './page-authority.js'
import { Standing } from './standing.js'
import { checkSources } from './source-rules.js'
import { fileRoots } from './links.js'
import { PROTOCOLS } from './protocol-table.js'
import type { HedgeSettings, HostTally, RelayEvent, RelayProtocolName, RelaySource } from './types.js'
import { createUpstream } from './upstream.js'

export interface RelayOptions {
  protocol: RelayProtocolName
  /** In order: the index first, then its mirrors. */
  sources: readonly RelaySource[]
  /** What every request must carry (HTTP Basic password or Bearer token): the relay serves its user only. */
  secret: string
  /** The loopback address to listen on (src/relay/address.ts); 127.0.0.1 by default, and where that one is not there. */
  host?: string
  /** The port to try first (stable across runs, so the tool's cache keys stay the same); busy, any free one. */
  port?: number
  /** The tool's environment: its proxy settings. */
  env?: NodeJS.ProcessEnv
  /** The CA bundle the tool trusts (PEM), when it names one. */
  ca?: string
  hedge?: Partial<HedgeSettings>
  /** The longest Retry-After (ms) a request waits for; past it, or on a second 429, the source is left. Default 10 s. */
  retryAfterBoundMs?: number
  /**
   * The id of the source that is the index the tool's own settings name (default: the first): its 404 for a page is
   * authoritative, npm's audit goes to it alone, and npm's `dist.tarball` URLs are given on its root (what npm
   * records in its lockfile) unless `tarballs` is `relay`.
   */
  index?: string
  /**
   * `index`: the tool fetches tarballs from the index itself, never through the relay (bun, yarn 1), so the index's own
   * packuments go on as it sent them (compressed, no digests learned). Unset, tarballs keep the index's URLs too, but
   * the tool may still send them to the relay (npm's --replace-registry-host), which checks them against the page.
   */
  tarballs?: 'index' | 'relay'
  onEvent?: (event: RelayEvent) => void
  now?: () => number
  /** npm: what the project asks for, so that packuments are fetched ahead of npm (src/relay/look-ahead.ts). */
  lookAhead?: LookAheadSeeds & { limits?: Partial<LookAheadLimits> }
  /**
   * When a page may come from a mirror (src/relay/page-authority.ts): `failover` false keeps every page on the index
   * (a private source beside it); `silentMs` is how long the index may send nothing for a page (default 5 s).
   */
  pages?: Partial<PageSettings>
  /**
   * Serve https with this certificate (src/relay/certificate.ts): for a tool that sends credentials over https only
   * (go). The tool is given the certificate to trust for its attempt; plain http otherwise.
   */
  tls?: RelayCertificate
}

export interface Relay {
  /** `http://<host>:<port>/` (`https://` with `tls`). */
  base: string
  host: string
  /** The index URL the tool is given: `<base>simple/` for pip, `<base>` for npm. */
  indexUrl: string
  port: number
  /** What each host did so far. */
  tally(): Record<string, HostTally>
  /** Bytes received for the tool and requests served, over every host, so far; and the tool's requests open now. */
  served(): { bytes: number; requests: number; open: number }
  /** Packuments fetched ahead of npm and those npm then took, with the bytes they came as. */
  lookedAhead(): { fetched: number; used: number; usedBytes: number } | undefined
  /** The pages the tool got from mirrors because the index failed, when any did. */
  mirrorPages(): MirrorPages | undefined
  /** The paths of the pages the tool got from the index itself, as the tool asked for them. */
  indexPages(): readonly string[]
  close(): Promise<void>
}

const digest = (value: string) => createHash('sha256').update(value).digest()

/**
 * Whether an Authorization header carries the secret: Basic (any user name) as pip sends a netrc's, Bearer, or the
 * secret alone, as cargo sends a registry's token (cargo:token, `Authorization: <token>`).
 */
function carriesSecret(header: string | undefined, expected: Buffer): boolean {
  const [scheme, value = ''] = (header ?? '').split(' ', 2)
  const password = /^basic$/i.test(scheme ?? '') ? Buffer.from(value, 'base64').toString('utf8').replace(/^[^:]*:/, '') : /^bearer$/i.test(scheme ?? '') ? value
    : header && !header.includes(' ') ? header : undefined
  return password !== undefined && timingSafeEqual(digest(password), expected)
}

/**
 * Starts a relay on 127.0.0.1 in front of `sources` (src/relay: docs/relay.md). Only requests carrying the secret
 * are served, so another local user cannot reach the sources through it.
 */
export async function startRelay(options: RelayOptions): Promise<Relay> {
  checkSources(options.sources)
  return serveRelay(await bindRelay({ host: options.host, port: options.port, tls: options.tls }), options)
}

/**
 * The relay on a socket bound already (src/relay/listen.ts), the requests it held served first: a run binds the
 * socket before the tool starts and loads this code while it does (src/run/relay.ts). `host`, `port` and `tls` of
 * `options` are the bound socket's business.
 */
export function serveRelay(bound: BoundRelay, options: RelayOptions): Relay {
  checkSources(options.sources)
  const sources = options.sources.map(source => ({ ...source, pages: withSlash(source.pages), files: withSlash(source.files) }))
  const upstream = createUpstream(options.env ?? process.env, options.ca)
  const ledger = new Ledger(options.onEvent)
  const expected = digest(options.secret)
  // A tool sends the same header on every request: once it has been checked, a lookup (hashed, not compared byte by
  // byte against the secret) saves a sha256 per request. A few spellings at most (Basic from a netrc, Bearer).
  const accepted = new Set<string>()
  const allowed = (header: string | undefined) => {
    if (header !== undefined && accepted.has(header)) return true
    if (!carriesSecret(header, expected)) return false
    if (accepted.size < 4) accepted.add(header!)
    return true
  }
  const protocol = PROTOCOLS[options.protocol]
  // conda's token form: `/t/<secret>/<path>` is the request for `/<path>` (src/relay/context.ts secretInPath).
  const secretOfPath = (request: { url?: string }) => {
    const match = protocol.secretInPath ? /^\/t\/([^/]+)(\/.*)$/s.exec(request.url ?? '') : null
    if (!match || !timingSafeEqual(digest(safeDecode(match[1]!)), expected)) return false
    request.url = match[2]!
    return true
  }
  const { base } = bound
  const index = sources.find(source => source.id === options.index) ?? sources[0]!
  const context: RelayContext = {
    protocol, sources, base, roots: fileRoots(sources.map(source => source.files)),
    index, pages: new PageAuthority({ ...DEFAULT_PAGES, ...options.pages }, index.id), tarballRoot: options.tarballs === 'relay' ? base : index.files, indexPagesAsSent: options.tarballs === 'index',
    latency: new LatencyBook({ ...DEFAULT_HEDGE, ...options.hedge }), standing: new Standing(options.now ?? Date.now), ledger, hashes: new HashBook(), upstream: upstream.fetch,
    now: options.now ?? Date.now, cooling: new Map(), retryAfterBoundMs: options.retryAfterBoundMs ?? 10_000, badCopies: new Map(),
  }
  const ahead = context.protocol.lookAhead
  if (options.lookAhead && ahead) context.lookAhead = new LookAhead(fetchAhead(context), ahead.pathOf, options.lookAhead, options.lookAhead.limits)
  bound.serve((request, response) => {
    if (!secretOfPath(request) && !allowed(request.headers.authorization)) return void response.writeHead(401, { 'content-type': 'text/plain' }).end('resilient relay: this relay serves another process\n')
    // The tool's requests under way: none between its transfers (a retry's delay), which no stall can be.
    ledger.totals.open++
    response.once('close', () => ledger.totals.open--)
    handleRequest(context, request, response).catch(() => response.headersSent ? response.destroy() : response.writeHead(502).end())
  })
  return {
    base, host: bound.host, port: bound.port, indexUrl: context.protocol.indexUrl(base),
    tally: () => ledger.tally(),
    served: () => ({ ...ledger.totals }),
    lookedAhead: () => context.lookAhead && { ...context.lookAhead.counts },
    mirrorPages: () => context.pages.summary(),
    indexPages: () => [...context.pages.indexPages],
    close: async () => {
      context.lookAhead?.close()
      await Promise.all([bound.close(), upstream.close()])
    },
  }
}

const withSlash = (url: string) => url.endsWith('/') ? url : `${url}/`

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** docs/relay.md "Pages": a first byte later than 5 s is far outside an index's usual answers, and below every tool's own read timeout (pip's 15 s). */
export const DEFAULT_PAGES: PageSettings = { failover: true, silentMs: 5000 }
