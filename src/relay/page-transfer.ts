import type { ServerResponse } from 'node:http'
import { pipeline } from 'node:stream/promises'
import type { Transform, Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { text } from 'node:stream/consumers'
import type { RelayContext } from './context.js'
import { toolHeaders } from './headers.js'
import { packumentRule } from './npm-pages.js'
import { rewritePypiHtml, rewritePypiJson, type RewrittenPage } from './pypi-pages.js'
import { TokenRewriter } from './token-stream.js'
import type { RelaySource } from './types.js'
import type { HeldPage } from './look-ahead.js'
import type { UpstreamResponse } from './upstream.js'

/** The body as sent, decoded: the relay rewrites text, so it passes pages on uncompressed (the tool is on loopback). */
function decoded(response: UpstreamResponse): Readable {
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

/**
 * A PEP 503 or 691 page, read whole (pip asks for one at a time; pages are small next to files) so that a body
 * that breaks can still be asked of the next source, then its file links pointed at the relay. Returns false when
 * the body broke before it was complete.
 */
export async function sendPypiPage(context: RelayContext, response: UpstreamResponse, tool: ServerResponse, source: RelaySource): Promise<boolean> {
  let page: string
  try {
    page = await text(decoded(response))
  } catch {
    return false
  }
  const type = String(response.headers['content-type'] ?? '')
  const links = { pageUrl: response.url, relayBase: context.base, roots: context.roots }
  let rewritten: RewrittenPage = { text: page, hashes: [] }
  try {
    rewritten = /json/i.test(type) ? rewritePypiJson(page, links) : /html/i.test(type) ? rewritePypiHtml(page, links) : rewritten
  } catch {
    // Not the JSON it says it is: passed on as it is, for the tool to judge.
  }
  for (const [path, hashes] of rewritten.hashes) context.hashes.learn(path, hashes)
  const body = Buffer.from(rewritten.text)
  context.ledger.bytes(source.id, Buffer.byteLength(page), false)
  tool.writeHead(response.status, toolHeaders(response.headers, { 'content-length': String(body.length) }))
  tool.end(body)
  return true
}

const packumentRewriter = (context: RelayContext) =>
  new TokenRewriter(packumentRule({ roots: context.roots, tarballRoot: context.tarballRoot, learn: (path, hashes) => context.hashes.learn(path, hashes) }))

/**
 * An npm packument read whole and rewritten as sendPackument would send it, for the relay to hold until npm asks
 * (src/relay/look-ahead.ts); undefined when the body broke.
 */
export async function readPackument(context: RelayContext, response: UpstreamResponse, source: RelaySource): Promise<HeldPage | undefined> {
  const rewriter = packumentRewriter(context)
  const parts: string[] = []
  let upstreamBytes = 0
  try {
    for await (const chunk of decoded(response) as AsyncIterable<Buffer>) {
      upstreamBytes += chunk.length
      parts.push(rewriter.feed(chunk))
    }
  } catch {
    return undefined
  }
  // An upstream that closed early without an error is a broken body too.
  if (response.body.readableAborted || (response.body as { aborted?: boolean }).aborted) return undefined
  parts.push(rewriter.end())
  const body = Buffer.from(parts.join(''))
  return { status: response.status, headers: toolHeaders(response.headers, { 'content-length': String(body.length) }), body, source: source.id, upstreamBytes }
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
 * An npm packument, streamed through the rewrite of its `dist.tarball` values, with back-pressure; a body that breaks
 * ends the response. Driven by the body's events rather than a pipeline: this runs for every package npm resolves.
 */
export function sendPackument(context: RelayContext, response: UpstreamResponse, tool: ServerResponse, source: RelaySource): Promise<void> {
  tool.writeHead(response.status, toolHeaders(response.headers))
  const rewriter = packumentRewriter(context)
  const body = decoded(response)
  return new Promise(resolve => {
    let over = false
    const finish = (broke: boolean) => {
      if (over) return
      over = true
      tool.off('drain', resume)
      if (!broke) return void tool.end(rewriter.end(), resolve)
      if (!tool.destroyed) context.ledger.failed(source.id, 'truncated')
      body.destroy()
      tool.destroy()
      resolve()
    }
    const resume = () => body.resume()
    body.on('data', (chunk: Buffer) => {
      context.ledger.bytes(source.id, chunk.length, false)
      const text = rewriter.feed(chunk)
      if (text && !tool.write(text)) body.pause()
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
