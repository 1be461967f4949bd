import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/**
 * What a local test server does with a request. `ok` serves it; `blackhole` accepts and never answers; `reset`
 * drops the connection; `status` answers with that code (and Retry-After); `reset` and `status` only for the first
 * `times` requests of a path when `times` is given; `corrupt` serves files that fail their hash check; `trickle` sends
 * the body at `bytesPerSecond` after the headers; `truncate` sends the headers and that fraction of the body, then
 * drops the connection; `delay` does `then` (default `ok`) after `ms`.
 */
export type Fault =
  | { kind: 'ok' }
  | { kind: 'blackhole' }
  | { kind: 'reset'; times?: number }
  | { kind: 'status'; status: number; retryAfter?: number; times?: number }
  | { kind: 'corrupt' }
  | { kind: 'trickle'; bytesPerSecond: number }
  | { kind: 'truncate'; fraction: number }
  | { kind: 'delay'; ms: number; then?: Fault }

export interface FaultRequest {
  path: string
  /** A package file (wheel, tarball) rather than an index page. */
  isFile: boolean
  /** How many times this path was asked for, this one included. */
  count: number
}

export type FaultChoice = Fault | ((request: FaultRequest) => Fault)

export interface FaultServerSpec {
  isFile(path: string): boolean
  /** Serves a request the fault let through: `ok`, `corrupt`, `trickle` or `truncate` (and `status`, `reset` past their `times`). */
  respond(path: string, fault: Fault, response: ServerResponse, baseUrl: string): void
  /** Content type of the error body of a `status` fault. */
  errorType: 'text/plain' | 'application/json'
}

export interface FaultServer {
  baseUrl: string
  port: number
  /** Paths requested, in order (decoded). */
  requests: string[]
  /** Every Authorization header received, in order: a mirror must never see the user's credentials. */
  authorizations: string[]
  setFault(fault: FaultChoice | undefined): void
  close(): Promise<void>
}

/**
 * The part every fault-injecting index server shares (PEP 503 for pip, an npm registry): faults, the request log,
 * loopback only, and a close that does not wait for black-holed connections.
 */
export async function startFaultServer(spec: FaultServerSpec, initial: FaultChoice | undefined): Promise<FaultServer> {
  const sockets = new Set<Socket>()
  const requests: string[] = []
  const authorizations: string[] = []
  const counts = new Map<string, number>()
  let fault: FaultChoice = initial ?? { kind: 'ok' }
  let baseUrl = ''
  const handle = (path: string, count: number, chosen: Fault, request: IncomingMessage, response: ServerResponse): void => {
    if (chosen.kind === 'delay') {
      const timer = setTimeout(() => handle(path, count, chosen.then ?? { kind: 'ok' }, request, response), chosen.ms)
      return void response.on('close', () => clearTimeout(timer))
    }
    const applies = !('times' in chosen) || chosen.times === undefined || count <= chosen.times
    if (chosen.kind === 'blackhole') return
    if (chosen.kind === 'reset' && applies) return void request.socket.resetAndDestroy()
    if (chosen.kind === 'status' && applies) {
      const headers: Record<string, string> = { 'content-type': spec.errorType }
      if (chosen.retryAfter !== undefined) headers['retry-after'] = String(chosen.retryAfter)
      const text = `HTTP ${chosen.status} from the local test server`
      return void response.writeHead(chosen.status, headers).end(spec.errorType === 'application/json' ? JSON.stringify({ error: text }) : `${text}\n`)
    }
    spec.respond(path, chosen, response, baseUrl)
  }
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)
    requests.push(path)
    if (request.headers.authorization) authorizations.push(request.headers.authorization)
    const count = (counts.get(path) ?? 0) + 1
    counts.set(path, count)
    handle(path, count, typeof fault === 'function' ? fault({ path, isFile: spec.isFile(path), count }) : fault, request, response)
  })
  server.on('connection', socket => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  baseUrl = `http://127.0.0.1:${port}/`
  return {
    baseUrl,
    port,
    requests,
    authorizations,
    setFault: next => { fault = next ?? { kind: 'ok' } },
    close: () => new Promise(resolve => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    }),
  }
}

/**
 * Sends `bytes` as the fault says: at once, at about `bytesPerSecond` (`trickle`), or `fraction` of them and then a
 * dropped connection, the headers announcing them all (`truncate`: a download breaking part way).
 */
export function sendBody(response: ServerResponse, bytes: Buffer, fault: Fault): void {
  if (fault.kind === 'trickle') return trickle(response, bytes, fault.bytesPerSecond)
  if (fault.kind !== 'truncate') return void response.end(bytes)
  response.write(bytes.subarray(0, Math.floor(bytes.length * fault.fraction)), () => setTimeout(() => response.socket?.resetAndDestroy(), 50))
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
