import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, request as forward, type Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { startRelay, type Relay, type RelayOptions } from '../../src/relay/server.js'
import type { RelayEvent, RelaySource } from '../../src/relay/types.js'
import type { NpmRegistry } from '../support/npm-registry.js'
import type { PypiServer } from '../../src/demo/pypi-server.js'

/** Shared by the relay's e2e tests: a relay in front of local fault-injecting servers, closed after each test. */
export const SECRET = 'relay-test-secret'
export const AUTHORIZATION = `Basic ${Buffer.from(`resilient:${SECRET}`).toString('base64')}`

/** A PEP 503 server as a relay source: pages at its simple URL, files under its root. */
export const pypiSource = (server: PypiServer, id = `127.0.0.1:${server.port}`): RelaySource => ({ id, pages: `${server.url}/`, files: server.url.replace(/simple$/, '') })
export const npmSource = (registry: NpmRegistry, id = `127.0.0.1:${registry.port}`): RelaySource => ({ id, pages: registry.url, files: registry.url })

export function relays(): (options: Omit<RelayOptions, 'secret'> & { secret?: string }) => Promise<Relay & { events: RelayEvent[] }> {
  const started: Relay[] = []
  afterEach(async () => {
    await Promise.all(started.splice(0).map(relay => relay.close()))
  })
  return async options => {
    const events: RelayEvent[] = []
    const relay = await startRelay({ secret: SECRET, ...options, onEvent: event => events.push(event) })
    started.push(relay)
    return Object.assign(relay, { events })
  }
}

/** pip's way to the relay's secret: a netrc named by NETRC, never the command line. */
export function pipCredentials(secret = SECRET): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'resilient-relay-netrc-'))
  writeFileSync(join(dir, 'netrc'), `machine 127.0.0.1 login resilient password ${secret}\n`, { mode: 0o600 })
  return { NETRC: join(dir, 'netrc') }
}

/** npm's: `_auth` for the relay's address in a user npmrc. */
export function npmCredentials(relay: Relay, home: string): Record<string, string> {
  const path = join(home, '.npmrc-relay')
  writeFileSync(path, `//127.0.0.1:${relay.port}/:_auth=${Buffer.from(`resilient:${SECRET}`).toString('base64')}\n`, { mode: 0o600 })
  return { npm_config_userconfig: path }
}

/**
 * An HTTP proxy that records what goes through it: CONNECT tunnels (host:port), and plain-http requests forwarded
 * as they came (their URL and Authorization), as a corporate proxy sees them. `connectPorts`: the only ports it
 * tunnels to (Squid's default allows CONNECT to 443 alone); others get 403.
 */
export async function proxy(options: { connectPorts?: number[] } = {}): Promise<{ url: string; tunnels: string[]; refused: string[]; forwarded: { url: string; authorization?: string }[]; close(): void }> {
  const refused: string[] = []
  const tunnels: string[] = []
  const forwarded: { url: string; authorization?: string }[] = []
  const server = createServer((request, response) => {
    forwarded.push({ url: request.url!, ...(request.headers.authorization && { authorization: request.headers.authorization }) })
    const target = new URL(request.url!)
    const upstream = forward({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: request.method, headers: request.headers }, answer => {
      response.writeHead(answer.statusCode!, answer.headers)
      answer.pipe(response)
    })
    upstream.on('error', () => response.destroy())
    request.pipe(upstream)
  })
  server.on('connect', (request, socket, head) => {
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
    upstream.on('error', () => socket.destroy())
    socket.on('error', () => upstream.destroy())
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, tunnels, refused, forwarded, close: () => server.close() }
}

/**
 * `registry` at http://localhost:<port>/, its packuments' tarball links too: another host name than the index's
 * 127.0.0.1, as a private registry has. Listening on every address, so localhost reaches it in either family.
 * Closed after each test.
 */
export function localhostFronts(): (registry: NpmRegistry) => Promise<string> {
  const forwarders: Server[] = []
  afterEach(() => {
    for (const forwarder of forwarders.splice(0)) forwarder.close()
  })
  return async registry => {
    let self = ''
    const forwarder = createServer((request, response) => {
      const upstream = forward(`${registry.url}${request.url!.slice(1)}`, { method: request.method, headers: { ...request.headers, host: `127.0.0.1:${registry.port}`, 'accept-encoding': 'identity' } }, answer => {
        const chunks: Buffer[] = []
        answer.on('data', chunk => chunks.push(chunk)).on('end', () => {
          const whole = Buffer.concat(chunks)
          const body = /json/.test(answer.headers['content-type'] ?? '') ? Buffer.from(whole.toString('utf8').replaceAll(registry.url, self)) : whole
          response.writeHead(answer.statusCode!, { 'content-type': answer.headers['content-type'] ?? 'application/octet-stream', 'content-length': String(body.length) }).end(body)
        })
      })
      upstream.on('error', () => response.destroy())
      request.pipe(upstream)
    })
    forwarders.push(forwarder)
    await new Promise<void>(resolve => forwarder.listen(0, resolve))
    self = `http://localhost:${(forwarder.address() as { port: number }).port}/`
    return self
  }
}
