import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Fault } from './fault-server.js'

/** How a local test server sends one body: the fault it carries out, and what the server supports. */
export interface BodyOptions {
  type: string
  fault: Fault
  /** Honour `Range: bytes=N-` / `bytes=N-M` with a 206 (a CDN does); false answers 200 with the whole body. */
  ranges: boolean
  /** Extra response headers (Cache-Control for a file, as PyPI sends it). */
  headers?: Record<string, string>
  /**
   * An index page as PyPI and npmjs serve it: an ETag (a matching If-None-Match gets 304), gzip when the client
   * accepts it.
   */
  page?: boolean
}

/** A single `bytes=start-` or `bytes=start-end` range within `size`, or undefined (no header, or a form not served). */
function rangeOf(header: string | undefined, size: number): { start: number; end: number } | undefined {
  const match = /^bytes=(\d+)-(\d*)$/.exec(header ?? '')
  if (!match) return undefined
  const start = Number(match[1])
  const end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1
  return start <= end ? { start, end } : undefined
}

/** Sends `bytes` at about `bytesPerSecond`, in tenths of a second. */
export function trickle(response: ServerResponse, bytes: Buffer, bytesPerSecond: number): void {
  const step = Math.max(1, Math.round(bytesPerSecond / 10))
  let offset = 0
  const timer = setInterval(() => {
    if (response.destroyed) return clearInterval(timer)
    response.write(bytes.subarray(offset, offset + step))
    offset += step
    if (offset >= bytes.length) {
      clearInterval(timer)
      response.end()
    }
  }, 100)
  response.on('close', () => clearInterval(timer))
}

/**
 * Answers with `bytes` as a real index would (a Range, an ETag), then carries out the fault: `trickle` sends slowly,
 * `truncate` announces the whole length but closes the connection after `atFraction` of the whole file has been sent
 * in this response (a link that breaks after so many bytes: a resumed request from further on goes that far again).
 */
export function sendBody(request: IncomingMessage, response: ServerResponse, content: Buffer, options: BodyOptions): void {
  let bytes = content
  const { fault } = options
  const headers: Record<string, string> = { 'content-type': options.type, ...options.headers }
  if (options.page) {
    const tag = `"${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"`
    headers.etag = tag
    if (request.headers['if-none-match'] === tag) return void response.writeHead(304, headers).end()
    if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
      headers['content-encoding'] = 'gzip'
      bytes = gzipSync(bytes)
    }
  }
  const range = options.ranges ? rangeOf(request.headers.range, bytes.length) : undefined
  if (options.ranges) headers['accept-ranges'] = 'bytes'
  const body = range ? bytes.subarray(range.start, range.end + 1) : bytes
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${bytes.length}`
  response.writeHead(range ? 206 : 200, { ...headers, 'content-length': String(body.length) })
  if (request.method === 'HEAD') return void response.end()
  if (fault.kind === 'trickle') return trickle(response, body, fault.bytesPerSecond)
  if (fault.kind === 'truncate') {
    const cut = Math.floor(bytes.length * fault.atFraction)
    if (cut < body.length) {
      // Closed once the bytes up to the break are handed to the kernel: the client receives them, then the end of
      // the connection before the announced length (a reset could drop what was still in flight on its way).
      return void response.write(body.subarray(0, cut), () => fault.hang || response.socket?.destroy())
    }
  }
  response.end(body)
}
