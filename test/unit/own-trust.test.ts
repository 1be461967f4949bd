import { readFileSync } from 'node:fs'
import { createServer as createHttpsServer, get, type Server } from 'node:https'
import { createServer as createTcpServer, connect, type AddressInfo, type Socket } from 'node:net'
import { Readable } from 'node:stream'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { fetchFor, ownFetch } from '../../src/mirrors/probe-fetch.js'
import { deferExtraCaCerts, ownTrust } from '../../src/own-trust.js'
import { createUpstream } from '../../src/relay/upstream.js'
import { startHttpProxy, type HttpProxy } from '../support/http-proxy.js'
import { makeCertificates, type Certificates } from '../support/tls-front.js'

// NODE_EXTRA_CA_CERTS kept from Node's start by the launcher (src/own-trust.ts): every TLS connection of resilient's
// own must still trust its certificates, directly, through an HTTP proxy and through SOCKS, and nothing else must.
// The server's certificate is self-signed: it is trusted only when the file naming it is.
let certificates: Certificates
let server: Server
let url: string
const closing: { close(): unknown }[] = []

beforeAll(async () => {
  certificates = makeCertificates()
  server = createHttpsServer({ cert: readFileSync(certificates.server), key: readFileSync(certificates.serverKey) }, (_request, response) => response.end('trusted'))
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`
})
afterAll(() => new Promise<void>(resolve => server.close(() => resolve())))
afterEach(async () => {
  deferExtraCaCerts(undefined)
  await Promise.all(closing.splice(0).map(item => item.close()))
})

/** A GET with node:https and these TLS options: the body, or the error's code. */
function httpsGet(options: object): Promise<string> {
  return new Promise(resolve => {
    get(url, { agent: false, ...options }, response => {
      let body = ''
      response.on('data', chunk => { body += chunk })
      response.on('end', () => resolve(body))
    }).on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })
}

const fetched = (fetch: typeof globalThis.fetch) => fetch(url).then(response => response.text(), (error: { cause?: { code?: string } }) => error.cause?.code ?? 'failed')

/** A SOCKS5 server (no authentication, CONNECT) that joins the client to the address it asks for. */
async function socksServer(): Promise<string> {
  const sockets = new Set<Socket>()
  const socks = createTcpServer(client => {
    sockets.add(client)
    client.once('data', () => {
      client.write(Buffer.from([5, 0]))
      client.once('data', (request: Buffer) => {
        const host = request[3] === 1 ? [...request.subarray(4, 8)].join('.') : request.subarray(5, 5 + request[4]!).toString()
        const port = request.readUInt16BE(request.length - 2)
        const upstream = connect(port, host, () => {
          client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]))
          upstream.pipe(client).pipe(upstream)
        })
        sockets.add(upstream)
        upstream.on('error', () => client.destroy())
      })
    })
    client.on('error', () => {})
  })
  await new Promise<void>(resolve => socks.listen(0, '127.0.0.1', resolve))
  closing.push({ close: () => { for (const socket of sockets) socket.destroy(); socks.close() } })
  return `socks5://127.0.0.1:${(socks.address() as AddressInfo).port}`
}

async function httpProxy(): Promise<HttpProxy> {
  const proxy = await startHttpProxy()
  closing.push(proxy)
  return proxy
}

describe('the trust of resilient\'s own TLS connections', () => {
  it('is Node\'s own where Node read NODE_EXTRA_CA_CERTS itself: nothing added, the certificate not trusted', async () => {
    expect(await ownTrust()).toEqual({})
    expect(await httpsGet(await ownTrust())).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY/)
    expect(await ownFetch()).toBe(globalThis.fetch)
  })

  it('adds the certificates of the file the launcher kept from Node, for those connections only', async () => {
    deferExtraCaCerts(certificates.server)
    expect(await httpsGet(await ownTrust())).toBe('trusted')
    // Node's shared store stays as it was: a connection given nothing trusts only what it did.
    expect(await httpsGet({})).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY/)
  })

  it('adds nothing from a file that cannot be read, as Node only warns then', async () => {
    deferExtraCaCerts('/nonexistent/extra-ca.pem')
    const trust = await ownTrust()
    expect(trust.secureContext).toBeDefined()
    expect(await httpsGet(trust)).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY/)
  })

  it('reaches fetch: resilient\'s own fetch, and a mirror probe\'s direct, through an HTTP proxy and through SOCKS', async () => {
    deferExtraCaCerts(certificates.server)
    expect(await fetched(await ownFetch())).toBe('trusted')
    // One fetch (one Agent, its connections kept alive) for every probe of the process.
    expect(await ownFetch()).toBe(await ownFetch())
    expect(await fetched(await fetchFor({}))).toBe('trusted')
    const proxy = await httpProxy()
    expect(await fetched(await fetchFor({ HTTPS_PROXY: proxy.url }))).toBe('trusted')
    expect(proxy.tunnels).toEqual([new URL(url).host])
    expect(await fetched(await fetchFor({ ALL_PROXY: await socksServer() }))).toBe('trusted')
    // Without the file, the same probe does not trust the server.
    deferExtraCaCerts(undefined)
    expect(await fetched(await fetchFor({ HTTPS_PROXY: proxy.url }))).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY/)
  })

  it('reaches the relay\'s upstream connections, direct, through an HTTP proxy and through SOCKS; a CA bundle the tool names replaces it', async () => {
    deferExtraCaCerts(certificates.server)
    const read = async (env: NodeJS.ProcessEnv, ca?: string) => {
      const upstream = createUpstream(env, ca)
      closing.push(upstream)
      try {
        const response = await upstream.fetch(url, { method: 'GET', headers: {}, signal: AbortSignal.timeout(10_000) })
        return await new Response(Readable.toWeb(response.body) as ReadableStream).text()
      } catch (error) {
        return (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code ?? 'failed'
      }
    }
    expect(await read({})).toBe('trusted')
    const proxy = await httpProxy()
    expect(await read({ HTTPS_PROXY: proxy.url })).toBe('trusted')
    expect(proxy.tunnels).toHaveLength(1)
    expect(await read({ ALL_PROXY: await socksServer() })).toBe('trusted')
    // The tool's own bundle, which lacks this certificate, is what the relay trusts for it: not Node's store.
    expect(await read({}, readFileSync(certificates.client, 'utf8'))).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY/)
  })
})
