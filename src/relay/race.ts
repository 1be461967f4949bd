import type { Readable } from 'node:stream'
import { failureOf, retryAfterMs, type RelayContext } from './context.js'
import type { FailureKind, RelaySource } from './types.js'
import type { UpstreamResponse } from './upstream.js'

export interface RaceRequest {
  /** The relay path, for messages. */
  path: string
  kind: 'page' | 'file' | 'other'
  method: string
  headers: Record<string, string>
  upstreamOf(source: RelaySource): string
  /** In the order they are asked. */
  candidates: readonly RelaySource[]
  /** The tool went away: nothing more to do. */
  signal: AbortSignal
  /** A request body (npm's audit POST): sent to one source only. */
  body?: Readable
  /** Fetched ahead of the tool (src/relay/look-ahead.ts): booked as served only when the tool takes it. */
  ahead?: boolean
}

export type RaceOutcome =
  | { won: true; source: RelaySource; response: UpstreamResponse; controller: AbortController }
  | { won: false; status: number; headers: Record<string, string>; message: string }

/**
 * A 2xx or 304 wins. An index's 404 for a page is its authoritative answer, passed on (a mirror's may only lag); a
 * file missing on one source is asked of the next. 429 and 5xx, a refusal (401, 403) and a connection that fails
 * send the request to the next source.
 */
function verdictOf(status: number, kind: RaceRequest['kind'], isIndex: boolean): 'win' | FailureKind {
  if ((status >= 200 && status < 300) || status === 304) return 'win'
  if (status === 404 || status === 410) return kind !== 'file' && isIndex ? 'win' : 'not-found'
  if (status === 429) return 'rate-limited'
  if (status >= 500) return 'server-error'
  if (status === 401 || status === 403 || (status >= 300 && status < 400)) return 'refused'
  return isIndex ? 'win' : 'refused'
}

interface Failure {
  source: RelaySource
  kind: FailureKind
  status?: number
  retryAfter?: string
}

/** What the tool gets when no source could answer: the index's own failure when it had one, else the last. */
function failureAnswer(failures: readonly Failure[], index: RelaySource | undefined): Extract<RaceOutcome, { won: false }> {
  const withStatus = failures.filter(failure => failure.status)
  const chosen = withStatus.find(failure => failure.source === index && failure.kind !== 'not-found') ?? withStatus.at(-1)
  const message = failures.map(failure => `${failure.source.id}: ${failure.status ? `HTTP ${failure.status}` : failure.kind}`).join('; ')
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' }
  if (chosen?.retryAfter) headers['retry-after'] = chosen.retryAfter
  return { won: false, status: chosen?.status ?? 502, headers, message: `resilient relay: no source could answer (${message || 'none available'})` }
}

/**
 * One request, raced across the sources: the first is asked; on a failure the next is asked at once, and when the
 * first byte is later than the hedging delay learned for the one being waited on, the next is asked in parallel.
 * The first good answer wins and the others are cancelled. Nothing is given up for being slow while no other
 * source has answered. A 429 keeps its source out until its Retry-After (up to the bound, when it is asked again).
 */
export function race(context: RelayContext, request: RaceRequest): Promise<RaceOutcome> {
  const { ledger, latency } = context
  return new Promise(resolve => {
    const queue = [...request.candidates]
    const running = new Map<RelaySource, { controller: AbortController; startedAt: number }>()
    const asked: RelaySource[] = []
    const failures: Failure[] = []
    const retriedAfterWait = new Set<RelaySource>()
    let settled = false
    let hedgeTimer: NodeJS.Timeout | undefined
    let waitTimer: NodeJS.Timeout | undefined

    const settle = (outcome: RaceOutcome) => {
      if (settled) return
      settled = true
      clearTimeout(hedgeTimer)
      clearTimeout(waitTimer)
      request.signal.removeEventListener('abort', onAbort)
      for (const [source, run] of running) {
        if (outcome.won && source === outcome.source) continue
        run.controller.abort()
        latency.record(source.id, context.now() - run.startedAt, true)
        context.standing.record(source.id, false)
      }
      if (outcome.won) {
        const losers = asked.filter(source => source !== outcome.source)
        for (const source of losers) ledger.failedOver(request.path, source.id, outcome.source.id, failures.find(f => f.source === source)?.kind ?? 'slow')
        if (!request.ahead) ledger.served(outcome.source.id)
      }
      resolve(outcome)
    }
    const onAbort = () => settle({ won: false, status: 499, headers: {}, message: 'the tool closed its request' })
    request.signal.addEventListener('abort', onAbort)

    const armHedge = (source: RelaySource) => {
      clearTimeout(hedgeTimer)
      if (!queue.length) return
      hedgeTimer = setTimeout(() => {
        if (settled || !running.has(source)) return
        ledger.hedged(source.id)
        launchNext()
      }, latency.delayFor(source.id))
    }

    const launch = (source: RelaySource) => {
      const controller = new AbortController()
      const startedAt = context.now()
      running.set(source, { controller, startedAt })
      if (!asked.includes(source)) asked.push(source)
      ledger.requested(source.id)
      context.upstream(request.upstreamOf(source), { method: request.method, headers: request.headers, signal: controller.signal, authorization: source.authorization, body: request.body })
        .then(response => onResponse(source, response), error => onFailure(source, failureOf(error)))
      armHedge(source)
    }

    /** Starts the first queued source that is not cooling down; false when there is none now. */
    const launchNext = (): boolean => {
      const now = context.now()
      const index = queue.findIndex(source => (context.cooling.get(source.id) ?? 0) <= now)
      if (index < 0) return false
      launch(queue.splice(index, 1)[0]!)
      return true
    }

    const onResponse = (source: RelaySource, response: UpstreamResponse) => {
      const run = running.get(source)
      if (!run || settled) return void response.body.destroy()
      latency.record(source.id, context.now() - run.startedAt)
      const verdict = verdictOf(response.status, request.kind, source === context.index)
      context.standing.record(source.id, verdict === 'win')
      if (verdict === 'win') {
        running.delete(source)
        return settle({ won: true, source, response, controller: run.controller })
      }
      response.body.on('error', () => {}).resume()
      const retryAfter = response.headers['retry-after']
      if (verdict === 'rate-limited') {
        const wait = retryAfterMs(retryAfter, context.now()) ?? 1000
        context.cooling.set(source.id, context.now() + wait)
        // Within the bound it is asked again once, after the other sources.
        if (wait <= context.retryAfterBoundMs && !retriedAfterWait.has(source)) {
          retriedAfterWait.add(source)
          queue.push(source)
        }
      }
      onFailure(source, verdict, response.status, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter)
    }

    const onFailure = (source: RelaySource, kind: FailureKind, status?: number, retryAfter?: string) => {
      if (settled || !running.delete(source)) return
      if (status === undefined) context.standing.record(source.id, false)
      ledger.failed(source.id, kind)
      failures.push({ source, kind, status, retryAfter })
      if (!launchNext() && !running.size) whenNothingRuns()
    }

    // Nothing runs and every source left is cooling down: wait for the first back, within the bound; else give up.
    const whenNothingRuns = () => {
      const now = context.now()
      const back = Math.min(...queue.map(s => context.cooling.get(s.id) ?? now))
      if (queue.length && back - now <= context.retryAfterBoundMs) {
        waitTimer = setTimeout(() => launchNext() || settle(failureAnswer(failures, context.index)), Math.max(0, back - now))
        return
      }
      settle(failureAnswer(failures, context.index))
    }

    if (!launchNext()) whenNothingRuns()
  })
}
