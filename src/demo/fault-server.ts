import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/**
 * What a local test server does with a request. `ok` serves it; `blackhole` accepts and never answers; `reset`
 * drops the connection; `status` answers with that code (and Retry-After); `reset` and `status` only for the first
 * `times` requests of a path when `times` is given; `corrupt` serves files that fail their hash check; `trickle` sends
 * the body at `bytesPerSecond` after the headers; `delay` does `then` (default `ok`) after `ms`; `truncate` drops a
 * file's connection after `atFraction` of the file was sent (or, with `hang`, keeps it open and sends nothing more).
 */
export type Fault =
  | { kind: 'ok' }
  | { kind: 'blackhole' }
  | { kind: 'reset'; times?: number }
  | { kind: 'status'; status: number; retryAfter?: number; times?: number }
  | { kind: 'corrupt' }
  | { kind: 'trickle'; bytesPerSecond: number }
  | { kind: 'delay'; ms: number; then?: Fault }
  | { kind: 'truncate'; atFraction: number; hang?: boolean }

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
  /** Serves a request the fault let through: `ok`, `corrupt`, `trickle`, `truncate` (and `status`, `reset` past their `times`). */
  respond(path: string, fault: Fault, response: ServerResponse, baseUrl: string, request: IncomingMessage): void
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
  /** Bytes written to every connection so far, headers included: what clients fetched from this server. */
  bytesSent(): number
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
  let closedBytes = 0
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
    spec.respond(path, chosen, response, baseUrl, request)
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
    socket.on('close', () => {
      closedBytes += socket.bytesWritten
      sockets.delete(socket)
    })
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
    bytesSent: () => [...sockets].reduce((sum, socket) => sum + socket.bytesWritten, closedBytes),
    close: () => new Promise(resolve => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    }),
  }
}
