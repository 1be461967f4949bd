import type { Readable } from 'node:stream'
import type { IndexFailure } from './page-authority.js'
import type { FailureKind, RelaySource } from './types.js'
import type { UpstreamResponse } from './upstream.js'

/** One request of the tool as the relay races it across its sources (src/relay/race.ts), and how it ends. */
export interface RaceRequest {
  /** The relay path, for messages. */
  path: string
  kind: 'page' | 'file' | 'other'
  method: string
  headers: Record<string, string>
  upstreamOf(source: RelaySource): string | Promise<string>
  /** In the order they are asked. */
  candidates: readonly RelaySource[]
  /** The tool went away: nothing more to do. */
  signal: AbortSignal
  /** A request body (npm's audit POST): sent to one source only. */
  body?: Readable
  /** Fetched ahead of the tool (src/relay/look-ahead.ts): booked as served only when the tool takes it. */
  ahead?: boolean
  /**
   * A page while the index stands (src/relay/page-authority.ts): only `source`, the index, is asked until it has
   * failed twice (asked again once at once, as the tool retries; a 429 within the bound waits for its Retry-After
   * instead) or sent nothing for `silentMs`; then the others too, the index's request left running. `opened` says why.
   */
  gate?: { source: RelaySource; silentMs: number; opened(why: IndexFailure): void }
  /**
   * A page while the index is down: `source`, the index, is asked together with the next source, and left to answer
   * for up to `silentMs` after another source won; `answered` says whether it gave an answer of its own.
   */
  probe?: { source: RelaySource; silentMs: number; answered(ok: boolean): void }
}

export type RaceOutcome =
  | { won: true; source: RelaySource; response: UpstreamResponse; controller: AbortController }
  | { won: false; status: number; headers: Record<string, string>; message: string }

/**
 * A 2xx or 304 wins. An index's 404 for a page is its authoritative answer, passed on (a mirror's may only lag); a
 * file missing on one source is asked of the next. 429 and 5xx, a refusal (401, 403) and a connection that fails
 * send the request to the next source.
 */
export function verdictOf(status: number, kind: RaceRequest['kind'], isIndex: boolean): 'win' | FailureKind {
  if ((status >= 200 && status < 300) || status === 304) return 'win'
  if (status === 404 || status === 410) return kind !== 'file' && isIndex ? 'win' : 'not-found'
  if (status === 429) return 'rate-limited'
  if (status >= 500) return 'server-error'
  if (status === 401 || status === 403 || (status >= 300 && status < 400)) return 'refused'
  return isIndex ? 'win' : 'refused'
}

export interface Failure {
  source: RelaySource
  kind: FailureKind
  status?: number
  retryAfter?: string
}

/**
 * What the tool gets when no source could answer: the index's own failure when it had one, else the last. A mirror's
 * 404 for a page is never passed on: a mirror lacking a page says nothing of what exists.
 */
export function failureAnswer(failures: readonly Failure[], index: RelaySource | undefined, kind: RaceRequest['kind']): Extract<RaceOutcome, { won: false }> {
  const withStatus = failures.filter(failure => failure.status && !(kind === 'page' && failure.kind === 'not-found' && failure.source !== index))
  const chosen = withStatus.find(failure => failure.source === index && failure.kind !== 'not-found') ?? withStatus.at(-1)
  const message = failures.map(failure => `${failure.source.id}: ${failure.status ? `HTTP ${failure.status}` : failure.kind}`).join('; ')
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' }
  if (chosen?.retryAfter) headers['retry-after'] = chosen.retryAfter
  return { won: false, status: chosen?.status ?? 502, headers, message: `resilient relay: no source could answer (${message || 'none available'})` }
}

