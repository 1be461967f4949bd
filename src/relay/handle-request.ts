import { once } from 'node:events'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { candidatesFor, type RelayContext } from './context.js'
import { transferFile } from './file-transfer.js'
import { upstreamHeaders } from './headers.js'
import { isSafePath } from './links.js'
import type { FetchAhead } from './look-ahead.js'
import { passOn, sendHeld } from './page-transfer.js'
import { racePage } from './page-race.js'
import { race, type RaceOutcome, type RaceRequest } from './race.js'
import type { RelaySource } from './types.js'

function answerFailure(tool: ServerResponse, outcome: Extract<RaceOutcome, { won: false }>): void {
  if (tool.headersSent || tool.destroyed) return void tool.destroy()
  tool.writeHead(outcome.status, outcome.headers).end(`${outcome.message}\n`)
}

// The relay decodes pages to rewrite them, so it takes any encoding Node decodes.
const PAGE_ENCODINGS = { 'accept-encoding': 'gzip, deflate, br' }

// A single range in the forms resumable downloads send; any other Range is left out (the whole file is an answer).
const SIMPLE_RANGE = /^bytes=\d+-\d*$/

/**
 * One request of the tool: a page is raced across the sources and its links rewritten; a file is raced, streamed
 * and resumed across them; anything else (npm's audit) goes to the index alone, unchanged.
 */
export async function handleRequest(context: RelayContext, request: IncomingMessage, tool: ServerResponse): Promise<void> {
  const path = (request.url ?? '/').replace(/^\//, '')
  const method = request.method ?? 'GET'
  if (!isSafePath(path)) return void tool.writeHead(400, { 'content-type': 'text/plain' }).end('resilient relay: not an index path\n')
  const route = context.protocol.route(path, method, context)
  if (route.kind === 'absent') return void tool.writeHead(404, { 'content-type': 'text/plain' }).end(`resilient relay: ${route.why}\n`)
  const controller = new AbortController()
  tool.on('close', () => tool.writableFinished || controller.abort())
  const base: Omit<RaceRequest, 'kind' | 'headers' | 'candidates'> = { path, method, upstreamOf: route.upstream, signal: controller.signal }

  if (route.kind === 'other') {
    // Not an index read: never sent anywhere but the index, and never twice (it may have a body). While the index is
    // down for this run (it failed a page), it is waited for no longer than a page would be: npm's audit or update
    // check would otherwise hold an install or npx up for npm's whole fetch-timeout, though it decides nothing of it.
    const bounded = context.pages.down ? AbortSignal.any([controller.signal, AbortSignal.timeout(context.pages.settings.silentMs)]) : controller.signal
    const outcome = await race(context, { ...base, signal: bounded, kind: 'other', headers: upstreamHeaders(request.headers, {}), candidates: [context.index], body: method === 'GET' || method === 'HEAD' ? undefined : request })
    if (!outcome.won && !controller.signal.aborted && bounded.aborted) {
      return answerFailure(tool, { won: false, status: 504, headers: { 'content-type': 'text/plain' }, message: `resilient relay: ${context.index.id} is not answering in this run` })
    }
    return outcome.won ? passOn(outcome.response, tool, method) : answerFailure(tool, outcome)
  }

  if (route.kind === 'file') {
    const range: Record<string, string> = typeof request.headers.range === 'string' && SIMPLE_RANGE.test(request.headers.range) ? { range: request.headers.range } : {}
    const headers = upstreamHeaders(request.headers, { 'accept-encoding': 'identity' })
    const candidates = candidatesFor(context, route.path)
    const outcome = await race(context, { ...base, kind: 'file', headers: { ...headers, ...range }, candidates })
    if (!outcome.won) return answerFailure(tool, outcome)
    return transferFile({ context, path: route.path, method, headers, candidates, upstreamOf: route.upstream, winner: outcome, response: tool, signal: controller.signal })
  }

  const name = context.lookAhead && method === 'GET' ? context.protocol.lookAhead?.nameOf(path) : undefined
  const ahead = name === undefined ? undefined : context.lookAhead!.take(name, upstreamHeaders(request.headers, {}))
  // A tool that gives up waiting (its own timeout) is not kept waiting for what is still being fetched ahead.
  const held = ahead && await Promise.race([ahead, once(controller.signal, 'abort').then(() => undefined)])
  if (controller.signal.aborted) return
  if (held) return sendHeld(context, held, tool, method, path)

  const headers = upstreamHeaders(request.headers, PAGE_ENCODINGS)
  // A page whose body breaks is asked again of the sources left, as long as nothing of it was sent.
  const broken = new Set<RelaySource>()
  for (;;) {
    const outcome = await racePage(context, { ...base, headers }, broken)
    if (!outcome.won) return answerFailure(tool, outcome)
    const { response, source } = outcome
    if (response.status !== 200 || method === 'HEAD') return passOn(response, tool, method)
    if (await context.protocol.sendPage(context, response, tool, source)) return
    context.ledger.failed(source.id, 'truncated')
    broken.add(source)
  }
}

/** How the look-ahead fetches a page: raced across the sources as the tool's request would be, read whole. */
export function fetchAhead(context: RelayContext): FetchAhead {
  return async (path, headers, signal) => {
    const route = context.protocol.route(path, 'GET', context)
    const read = context.protocol.lookAhead?.read
    if (route.kind !== 'page' || !read) return undefined
    const outcome = await racePage(context, { path, method: 'GET', headers: { ...headers, ...PAGE_ENCODINGS }, upstreamOf: route.upstream, signal, ahead: true })
    if (!outcome.won) return undefined
    if (outcome.response.status === 200) return read(context, outcome.response, outcome.source)
    outcome.response.body.on('error', () => {}).resume()
    return undefined
  }
}
