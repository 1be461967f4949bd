import type { ServerResponse } from 'node:http'
import { buffer } from 'node:stream/consumers'
import { pipeline } from 'node:stream/promises'
import type { Transform, Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import type { RelayContext } from './context.js'
import { single, toolHeaders } from './headers.js'
import type { HeldPage } from './look-ahead.js'
import type { RelaySource } from './types.js'
import type { UpstreamResponse } from './upstream.js'

/** The body as sent, decoded: the relay rewrites text, so it passes pages on uncompressed (the tool is on loopback). */
export function decoded(response: UpstreamResponse): Readable {
  const encoding = String(response.headers['content-encoding'] ?? 'identity').toLowerCase()
  const decoder: Transform | undefined = encoding === 'gzip' || encoding === 'x-gzip' ? createGunzip() : encoding === 'deflate' ? createInflate() : encoding === 'br' ? createBrotliDecompress() : undefined
  if (!decoder) return response.body
  response.body.on('error', error => decoder.destroy(error))
  return response.body.pipe(decoder)
}

/** A status other than 200 (304, the index's 404, ...): passed on as it came. */
export function passOn(response: UpstreamResponse, tool: ServerResponse, method: string): void {
  const body = response.status === 304 || method === 'HEAD' ? undefined : decoded(response)
  tool.writeHead(response.status, toolHeaders(response.headers))
  if (!body) {
    response.body.on('error', () => {}).resume()
    return void tool.end()
  }
  pipeline(body, tool).catch(() => tool.destroy())
}

/** A packument fetched ahead, given to the tool that now asks for it, and booked as served by its source. */
export function sendHeld(context: RelayContext, page: HeldPage, tool: ServerResponse, method: string, path: string): void {
  context.ledger.served(page.source)
  context.pages.servedBy(page.source, path)
  context.ledger.bytes(page.source, page.upstreamBytes, false)
  tool.writeHead(page.status, page.headers)
  tool.end(method === 'HEAD' ? undefined : page.body)
}

/**
 * A page passed on as the source sent it (decoded), or as `rewrite` makes it, read whole first: pages are small, and a
 * body that breaks can then still be asked of the next source. False when it broke before it was complete (nothing
 * was sent).
 */
export async function sendPageAsIs(context: RelayContext, response: UpstreamResponse, tool: ServerResponse, source: { id: string }, rewrite: (body: Buffer) => Buffer = body => body): Promise<boolean> {
  let body: Buffer
  try {
    body = await buffer(decoded(response))
  } catch {
    return false
  }
  if (response.body.readableAborted) return false
  const sent = rewrite(body)
  context.ledger.bytes(source.id, body.length, false)
  tool.writeHead(response.status, toolHeaders(response.headers, { 'content-length': String(sent.length) }))
  tool.end(sent)
  return true
}

/** What a streamed page goes through on its way to the tool: each chunk in, text or bytes out; `end` flushes. */
export interface PageFilter {
  feed(chunk: Buffer): string | Buffer
  end(): string | Buffer
}

/**
 * A 200 page streamed to the tool through `filter` (npm's packument rewrite, conda's digest scan), decoded, with
 * back-pressure; a body that breaks ends the response. Driven by the body's events rather than a pipeline: this runs
 * for every package npm resolves.
 */
export function streamPage(context: RelayContext, response: UpstreamResponse, tool: ServerResponse, source: RelaySource, filter: PageFilter): Promise<void> {
  tool.writeHead(response.status, toolHeaders(response.headers))
  return streamBody(context, response, decoded(response), tool, source, filter)
}

/** Passes on a page unchanged, in the encoding it came in (the tool asked for it): nothing decoded, nothing rewritten. */
export function streamPageAsSent(context: RelayContext, response: UpstreamResponse, tool: ServerResponse, source: RelaySource): Promise<void> {
  tool.writeHead(response.status, toolHeaders(response.headers, { 'content-encoding': single(response.headers['content-encoding']), 'content-length': single(response.headers['content-length']) }))
  return streamBody(context, response, response.body, tool, source, { feed: chunk => chunk, end: () => '' })
}

/** The tool's Accept-Encoding has `encoding` (identity always). */
export function accepts(tool: ServerResponse, encoding: string | string[] | undefined): boolean {
  const wanted = (single(encoding) ?? 'identity').trim().toLowerCase()
  if (wanted === 'identity') return true
  const header = single(tool.req?.headers['accept-encoding']) ?? ''
  return header.split(',').some(part => {
    const [name, ...parameters] = part.split(';').map(piece => piece.trim().toLowerCase())
    return name === wanted && !parameters.some(parameter => /^q=0(?:\.0*)?$/.test(parameter))
  })
}

function streamBody(context: RelayContext, response: UpstreamResponse, body: Readable, tool: ServerResponse, source: RelaySource, filter: PageFilter): Promise<void> {
  return new Promise(resolve => {
    let over = false
    const finish = (broke: boolean) => {
      if (over) return
      over = true
      tool.off('drain', resume)
      if (!broke) return void tool.end(filter.end(), resolve)
      if (!tool.destroyed) context.ledger.failed(source.id, 'truncated')
      body.destroy()
      tool.destroy()
      resolve()
    }
    const resume = () => body.resume()
    body.on('data', (chunk: Buffer) => {
      context.ledger.bytes(source.id, chunk.length, false)
      const out = filter.feed(chunk)
      if (out.length && !tool.write(out)) body.pause()
    })
    tool.on('drain', resume)
    body.once('end', () => finish(false))
    body.once('error', () => finish(true))
    // The tool went away before the end: nothing more to read.
    tool.once('close', () => finish(!tool.writableFinished))
    // An upstream that closes early without an error is a broken body too.
    if (body !== response.body) response.body.once('aborted', () => finish(true))
    else body.once('close', () => body.readableEnded || finish(true))
  })
}
