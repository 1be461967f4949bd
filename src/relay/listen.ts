import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { RelayCertificate } from './certificate.js'

type Listener = RequestListener<typeof IncomingMessage, typeof ServerResponse>

/**
 * A relay's listening socket, bound before its code is loaded: a run binds it, starts the tool with its address, and
 * loads the relay's code while the tool starts (src/run/relay.ts). Requests that arrive meanwhile wait, in order, for
 * `serve`; none is lost.
 */
export interface BoundRelay {
  host: string
  port: number
  /** `http://<host>:<port>/` (`https://` with a certificate). */
  base: string
  /** Hands every request, those held so far first, to `listener`. Once only. */
  serve(listener: Listener): void
  /** The tool's requests held until `serve`. */
  held(): number
  /** Stops listening and ends every connection (held requests included). */
  close(): Promise<void>
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

/** The planned address, else the same port on 127.0.0.1 (no such loopback address here), else any free port. */
async function listenWhereFree(server: Server, host: string, port: number): Promise<{ host: string; port: number }> {
  try {
    return { host, port: await listen(server, port, host) }
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'EADDRNOTAVAIL' && host !== '127.0.0.1') return listenWhereFree(server, '127.0.0.1', port)
    if (code !== 'EADDRINUSE' || !port) throw error
    return { host, port: await listen(server, 0, host) }
  }
}

/** Listens on `host` (127.0.0.1 by default) at `port` (busy: any free one), https with `tls`, serving nothing yet. */
export async function bindRelay({ host = '127.0.0.1', port = 0, tls }: { host?: string; port?: number; tls?: RelayCertificate }): Promise<BoundRelay> {
  let served: Listener | undefined
  const waiting: Parameters<Listener>[] = []
  const hold: Listener = (request, response) => served ? served(request, response) : void waiting.push([request, response])
  // node:https (and the TLS stack under it) only for a relay served over https (go): 3 to 10 ms of a run's start here.
  const server: Server = tls ? (await import('node:https')).createServer({ key: tls.key, cert: tls.cert }, hold) : createServer(hold)
  // Tools keep idle connections for a while (npm's agent, pip's pool): closing them first would make them fail.
  server.keepAliveTimeout = 65_000
  const sockets = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  const bound = await listenWhereFree(server, host, port)
  return {
    ...bound,
    base: `${tls ? 'https' : 'http'}://${bound.host}:${bound.port}/`,
    serve: listener => {
      if (served) throw new Error('a relay serves one listener')
      served = listener
      for (const [request, response] of waiting.splice(0)) listener(request, response)
    },
    held: () => waiting.length,
    close: () => {
      const closed = new Promise<void>(resolve => server.close(() => resolve()))
      for (const socket of sockets) socket.destroy()
      return closed
    },
  }
}
