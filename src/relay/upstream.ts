import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import type { Readable } from 'node:stream'
import type { Dispatcher } from 'undici'
import { socksAgent } from '../mirrors/probe-fetch.js'
import { ownTrust } from '../own-trust.js'
import { proxyFor } from '../proxies.js'

/** An upstream answer: its status and headers now, its body as it comes. */
export interface UpstreamResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Readable
  /** The URL that answered, after redirects: relative links of a page resolve against it. */
  url: string
}

export interface UpstreamInit {
  method: string
  headers: Record<string, string>
  signal: AbortSignal
  /** Sent to the source's own origin only: dropped when a redirect leaves it. */
  authorization?: string
  body?: Readable
}

export type Upstream = (url: string, init: UpstreamInit) => Promise<UpstreamResponse>
type OneRequest = (url: string, init: UpstreamInit & { headers: Record<string, string> }) => Promise<UpstreamResponse>

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/** The TLS trust of the relay's upstream connections: the tool's CA bundle when it names one, else Node's store. */
const trustOf = async (ca: string | undefined) => ca ? { ca } : ownTrust()

/** Node's own client, kept-alive connections, for a source reached directly: nothing more to load than Node has. */
function direct(ca: string | undefined): { send: OneRequest; close(): void } {
  const plain = new HttpAgent({ keepAlive: true })
  let secure: Promise<{ request: typeof import('node:https').request; agent: import('node:https').Agent }> | undefined
  const tls = () => (secure ??= Promise.all([import('node:https'), trustOf(ca)]).then(([https, trust]) => ({ request: https.request, agent: new https.Agent({ keepAlive: true, ...trust }) })))
  const send: OneRequest = async (url, init) => {
    const target = new URL(url)
    const https = target.protocol === 'https:' ? await tls() : undefined
    return new Promise((resolve, reject) => {
      const options = { method: init.method, headers: init.headers, signal: init.signal, agent: https?.agent ?? plain }
      const answer = (response: IncomingMessage) => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: response, url })
      const request = https ? https.request(target, options, answer) : httpRequest(target, options, answer)
      request.on('error', reject)
      if (init.body) init.body.pipe(request)
      else request.end()
    })
  }
  return { send, close: () => {
    plain.destroy()
    void secure?.then(({ agent }) => agent.destroy())
  } }
}

/** undici, for a source behind the proxy the tool uses (HTTP: CONNECT for https, absolute-form for http; or SOCKS): loaded only then. */
function proxied(ca: string | undefined): { send: (proxy: string) => OneRequest; close(): Promise<void> } {
  const dispatchers = new Map<string, Promise<Dispatcher>>()
  const timeouts = { headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 30_000 }
  const dispatcherFor = (proxy: string) => {
    let dispatcher = dispatchers.get(proxy)
    if (!dispatcher) {
      // A plain-http upstream goes to the proxy as an absolute-form GET, as pip and npm send it: many proxies allow
      // CONNECT to port 443 only (Squid's default), so tunnelling to an http index would be refused. An https proxy
      // itself is verified with Node's store, as before the tool's.
      dispatcher = Promise.all([trustOf(ca), ownTrust()]).then(([tls, proxyTls]) => /^socks/i.test(proxy) ? socksAgent(proxy, tls, timeouts)
        : import('undici').then(undici => new undici.ProxyAgent({ ...timeouts, uri: proxy, requestTls: tls, proxyTls, proxyTunnel: false })))
      dispatchers.set(proxy, dispatcher)
    }
    return dispatcher
  }
  return {
    send: proxy => async (url, init) => {
      const [{ request }, dispatcher] = await Promise.all([import('undici'), dispatcherFor(proxy)])
      const response = await request(url, { method: init.method as Dispatcher.HttpMethod, headers: init.headers, signal: init.signal, body: init.body, dispatcher })
      return { status: response.statusCode, headers: response.headers, body: response.body, url }
    },
    close: async () => {
      await Promise.all([...dispatchers.values()].map(dispatcher => dispatcher.then(d => d.close()).catch(() => undefined)))
    },
  }
}

/**
 * How the relay reaches its sources: through the proxy the tool would use, trusting the CA bundle the tool would use
 * (`ca`; Node's own store plus NODE_EXTRA_CA_CERTS when the tool names none: src/own-trust.ts), following redirects. No timeout of its
 * own: nothing is given up for being slow while no other source has answered; the tool's own timeout, which ends
 * its request to the relay, ends the upstream request with it.
 */
export function createUpstream(env: NodeJS.ProcessEnv, ca?: string): { fetch: Upstream; close(): Promise<void> } {
  const plain = direct(ca)
  const viaProxy = proxied(ca)
  const fetch: Upstream = async (url, init) => {
    let current = url
    for (let hop = 0; ; hop++) {
      const sameOrigin = hop === 0 || new URL(current).origin === new URL(url).origin
      const headers = { ...init.headers, ...(init.authorization && sameOrigin && { authorization: init.authorization }) }
      const proxy = proxyFor(current, env)
      const response = await (proxy ? viaProxy.send(proxy) : plain.send)(current, { ...init, headers })
      const location = response.headers.location
      if (!REDIRECTS.has(response.status) || typeof location !== 'string' || hop >= 5 || init.body) return response
      response.body.resume()
      current = new URL(location, current).href
    }
  }
  return {
    fetch,
    close: async () => {
      plain.close()
      await viaProxy.close()
    },
  }
}
