import type { ServerResponse } from 'node:http'
import { buffer } from 'node:stream/consumers'
import { pipeline } from 'node:stream/promises'
import type { Transform, Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import type { RelayContext } from './context.js'
import { toolHeaders } from './headers.js'
import type { HeldPage } from './look-ahead.js'
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
 * A page passed on as the source sent it (decoded), read whole first: pages are small, and a body that breaks can
 * then still be asked of the next source. False when it broke before it was complete (nothing was sent).
 */
export async function sendPageAsIs(context: RelayContext, response: UpstreamResponse, tool: ServerResponse, source: { id: string }, read?: (body: Buffer) => void): Promise<boolean> {
  let body: Buffer
  try {
    body = await buffer(decoded(response))
  } catch {
    return false
  }
  if (response.body.readableAborted) return false
  read?.(body)
  context.ledger.bytes(source.id, body.length, false)
  tool.writeHead(response.status, toolHeaders(response.headers, { 'content-length': String(body.length) }))
  tool.end(body)
  return true
}
