import { createServer, request as forward } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'

/** A local HTTP proxy and what went through it. */
export interface HttpProxy {
  /** `http://127.0.0.1:<port>`, as HTTP_PROXY takes it. */
  url: string
  /** CONNECT tunnels opened (`host:port`). */
  tunnels: string[]
  /** CONNECT requests refused (`host:port`): a port outside `connectPorts`. */
  refused: string[]
  /** Plain-http requests forwarded as they came (absolute-form URL, Authorization), as a corporate proxy sees them. */
  forwarded: { url: string; authorization?: string }[]
  close(): Promise<void>
}

/**
 * An HTTP proxy on 127.0.0.1 that records what goes through it: CONNECT tunnels, and plain-http requests forwarded as
 * they came. `connectPorts`: the only ports it tunnels to (Squid's default allows CONNECT to 443 alone, its
 * `SSL_ports`); others get 403. Used by the relay's e2e tests and the differential matrix (no test runner inside).
 */
export async function startHttpProxy(options: { connectPorts?: readonly number[] } = {}): Promise<HttpProxy> {
  const refused: string[] = []
  const tunnels: string[] = []
  const forwarded: { url: string; authorization?: string }[] = []
  const sockets = new Set<Socket>()
  const server = createServer((request, response) => {
    forwarded.push({ url: request.url!, ...(request.headers.authorization && { authorization: request.headers.authorization }) })
    let target: URL
    try {
      target = new URL(request.url!)
    } catch {
      // An origin-form request: not meant for a proxy.
      return void response.writeHead(400).end()
    }
    const upstream = forward({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: request.method, headers: request.headers }, answer => {
      response.writeHead(answer.statusCode!, answer.headers)
      answer.pipe(response)
    })
    upstream.on('error', () => response.destroy())
    response.on('close', () => upstream.destroy())
    request.pipe(upstream)
  })
  server.on('connection', socket => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  server.on('connect', (request, socket: Socket, head) => {
    const [host, port] = request.url!.split(':')
    if (options.connectPorts && !options.connectPorts.includes(Number(port))) {
      refused.push(request.url!)
      return void socket.end('HTTP/1.1 403 Forbidden\r\n\r\n')
    }
    tunnels.push(request.url!)
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(socket).pipe(upstream)
    })
    sockets.add(upstream)
    upstream.on('close', () => sockets.delete(upstream))
    upstream.on('error', () => socket.destroy())
    socket.on('error', () => upstream.destroy())
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    refused,
    forwarded,
    close: () => new Promise(resolve => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    }),
  }
}
