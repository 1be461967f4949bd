import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { normalizeName, type BuiltWheel } from './wheel.js'

/**
 * What the server does with a request. `ok` serves it; `blackhole` accepts and never answers; `reset` drops the
 * connection; `status` answers with that code (and Retry-After); `corrupt` serves files with flipped bytes (a hash
 * mismatch); `trickle` sends the body at `bytesPerSecond` after the headers.
 */
export type Fault =
  | { kind: 'ok' }
  | { kind: 'blackhole' }
  | { kind: 'reset' }
  | { kind: 'status'; status: number; retryAfter?: number; times?: number }
  | { kind: 'corrupt' }
  | { kind: 'trickle'; bytesPerSecond: number }

export interface PypiServerOptions {
  wheels: BuiltWheel[]
  /** Applied to every request, or chosen per request (simple pages vs files). */
  fault?: Fault | ((request: { path: string; isFile: boolean; count: number }) => Fault)
  /** Projects (normalised names) this index does not have, or `name==version` files it lacks: a lagging mirror. */
  missing?: string[]
}

export interface PypiServer {
  /** The index URL pip takes: `http://127.0.0.1:<port>/simple`. */
  url: string
  port: number
  /** Paths requested, in order. */
  requests: string[]
  setFault(fault: PypiServerOptions['fault']): void
  close(): Promise<void>
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')
}

/** A PEP 503 "simple" index on 127.0.0.1 with fault injection, for e2e tests and `resilient demo`. */
export async function startPypiServer(options: PypiServerOptions): Promise<PypiServer> {
  const sockets = new Set<Socket>()
  const requests: string[] = []
  let fault = options.fault ?? { kind: 'ok' }
  const counts = new Map<string, number>()
  const missing = new Set(options.missing ?? [])
  const available = () => options.wheels.filter(w => !missing.has(normalizeName(w.name)) && !missing.has(`${normalizeName(w.name)}==${w.version}`))

  const serve = (request: IncomingMessage, response: ServerResponse): void => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)
    requests.push(path)
    const isFile = path.startsWith('/files/')
    const count = (counts.get(path) ?? 0) + 1
    counts.set(path, count)
    const chosen = typeof fault === 'function' ? fault({ path, isFile, count }) : fault
    if (chosen.kind === 'blackhole') return
    if (chosen.kind === 'reset') {
      request.socket.resetAndDestroy()
      return
    }
    if (chosen.kind === 'status' && (chosen.times === undefined || count <= chosen.times)) {
      const headers: Record<string, string> = { 'content-type': 'text/plain' }
      if (chosen.retryAfter !== undefined) headers['retry-after'] = String(chosen.retryAfter)
      response.writeHead(chosen.status, headers).end(`HTTP ${chosen.status} from the local test index\n`)
      return
    }
    const body = route(path, available())
    if (!body) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found\n')
      return
    }
    let bytes = body.bytes
    if (chosen.kind === 'corrupt' && isFile) {
      bytes = Buffer.from(bytes)
      for (let i = Math.floor(bytes.length / 2); i < bytes.length; i += 97) bytes[i] = bytes[i]! ^ 0xff
    }
    response.writeHead(200, { 'content-type': body.type, 'content-length': String(bytes.length) })
    if (chosen.kind === 'trickle') trickle(response, bytes, chosen.bytesPerSecond)
    else response.end(bytes)
  }

  const server = createServer(serve)
  server.on('connection', socket => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/simple`,
    port,
    requests,
    setFault: next => { fault = next ?? { kind: 'ok' } },
    close: () => new Promise(resolve => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    }),
  }
}

function route(path: string, wheels: BuiltWheel[]): { type: string; bytes: Buffer } | undefined {
  const html = (text: string) => ({ type: 'text/html', bytes: Buffer.from(`<!DOCTYPE html>\n<html><body>\n${text}\n</body></html>\n`) })
  if (path === '/simple/' || path === '/simple') {
    const names = [...new Set(wheels.map(w => normalizeName(w.name)))]
    return html(names.map(name => `<a href="/simple/${name}/">${name}</a><br/>`).join('\n'))
  }
  const project = /^\/simple\/([^/]+)\/?$/.exec(path)?.[1]
  if (project) {
    const files = wheels.filter(w => normalizeName(w.name) === normalizeName(project))
    if (!files.length) return undefined
    return html(files.map(w => `<a href="/files/${w.filename}#sha256=${w.sha256}">${escapeHtml(w.filename)}</a><br/>`).join('\n'))
  }
  const file = /^\/files\/([^/]+)$/.exec(path)?.[1]
  const wheel = wheels.find(w => w.filename === file)
  return wheel && { type: 'application/octet-stream', bytes: wheel.bytes }
}

/** Sends `bytes` at `bytesPerSecond`, a tenth every 100 ms (the local npm registry's `trickle` fault uses it too). */
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
