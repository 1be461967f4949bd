import type { HashBook } from './expected-hash.js'
import type { LookAhead } from './look-ahead.js'
import type { ProtocolAddresses } from './protocol-addresses.js'
import type { LatencyBook } from './hedge-delay.js'
import type { Ledger } from './ledger.js'
import type { PageAuthority } from './page-authority.js'
import type { ServerResponse } from 'node:http'
import type { HeldPage } from './look-ahead.js'
import type { Route } from './protocols.js'
import type { UpstreamResponse } from './upstream.js'
import type { FailureKind, RelayProtocolName, RelaySource } from './types.js'
import type { Standing } from './standing.js'
import type { Upstream } from './upstream.js'

/*
 * (RelayProtocol lives here, beside the context its functions take: the one would import the other otherwise.)
 */
/**
 * One index protocol, as data (a module each: protocol-pypi.ts, protocol-npm.ts): how its pages and files are named,
 * rewritten and checked. Nothing outside its module branches on which protocol it is.
 */
export interface RelayProtocol extends ProtocolAddresses {
  name: RelayProtocolName
  /**
   * `path` is the request's path and query, without the leading slash, already checked by isSafePath; `context` for a
   * protocol whose sources say themselves where their files are (cargo's config.json `dl`).
   */
  route(path: string, method: string, context?: RelayContext): Route
  /**
   * Sends a 200 page to the tool, its file links pointed at the relay and their published digests learned. False when
   * its body broke before anything was sent (the page is then asked of another source); true once sent or ended.
   */
  sendPage(context: RelayContext, response: UpstreamResponse, tool: ServerResponse, source: RelaySource): Promise<boolean>
  /**
   * Where the tool resolves one name at a time (npm): how a page's path names a package and back, and the page read
   * whole, to be held until the tool asks (src/relay/look-ahead.ts).
   */
  lookAhead?: {
    nameOf(path: string): string | undefined
    pathOf(name: string): string
    read(context: RelayContext, response: UpstreamResponse, source: RelaySource): Promise<HeldPage | undefined>
  }
}

/** What every request of one relay shares: its sources, what it learned, what it counts. */
export interface RelayContext {
  protocol: RelayProtocol
  /** In the order they are asked: the index first, then the mirrors (a failing index is ranked after them). */
  sources: readonly RelaySource[]
  /** The index the tool's own settings name: its pages are the answer (pages), npm's audit goes to it alone. */
  index: RelaySource
  /** Whether a page may come from a mirror now, and which did (src/relay/page-authority.ts). */
  pages: PageAuthority
  /** `http://127.0.0.1:<port>/`. */
  base: string
  /** The sources' file roots (src/relay/links.ts fileRoots). */
  roots: readonly string[]
  /** Where packuments' `dist.tarball` point (src/relay/npm-pages.ts). */
  tarballRoot: string
  /** The tool fetches tarballs from the index, never here: the index's packuments need neither rewrite nor digests. */
  indexPagesAsSent?: boolean
  latency: LatencyBook
  /** Which sources are failing now: asked after the others (src/relay/standing.ts). */
  standing: Standing
  ledger: Ledger
  hashes: HashBook
  upstream: Upstream
  now(): number
  /** Source id → when it may be asked again, after a 429's Retry-After. */
  cooling: Map<string, number>
  /** The longest Retry-After the relay waits for before giving up on a source for a request. */
  retryAfterBoundMs: number
  /** Relay path → the sources whose copy of that file failed its published hash: asked last. */
  badCopies: Map<string, Set<string>>
  /** npm's packuments fetched ahead of the tool, when the run gave what to start from (src/relay/look-ahead.ts). */
  lookAhead?: LookAhead
}

/** The failure an upstream request ended with, from undici's error codes and Node's. */
export function failureOf(error: unknown): FailureKind {
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code ?? ''
  if (/TIMEOUT|ETIMEDOUT/.test(code)) return 'timeout'
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT|CERT|SSL|ERR_TLS|DEPTH_ZERO|SELF_SIGNED/.test(code)) return 'connect'
  return 'reset'
}

/** The sources to ask for `path`, in order: those failing now after the others, those with a bad copy of it last. */
export function candidatesFor(context: RelayContext, path: string | undefined): RelaySource[] {
  const bad = path ? context.badCopies.get(path) : undefined
  const behind = new Set(context.sources.filter(source => context.standing.behind(source.id)))
  const rank = (source: RelaySource) => (bad?.has(source.id) ? 2 : 0) + (behind.has(source) ? 1 : 0)
  return [...context.sources].sort((a, b) => rank(a) - rank(b))
}

/** Seconds of a Retry-After header (a number or an HTTP date), in milliseconds from `now`. */
export function retryAfterMs(value: string | string[] | undefined, now: number): number | undefined {
  const text = Array.isArray(value) ? value[0] : value
  if (!text) return undefined
  if (/^\d+$/.test(text.trim())) return Number(text) * 1000
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}
