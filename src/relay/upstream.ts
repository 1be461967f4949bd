import type { Readable } from 'node:stream'
import type { Dispatcher } from 'undici'
import { socksAgent } from '../mirrors/probe-fetch.js'
import { usesProxy } from '../retry/probe.js'

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

type Undici = Awaited<ReturnType<typeof loadUndici>>
const loadUndici = () => import('undici')

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/** The proxy the tool itself would use for `url` (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY; NO_PROXY), as retry/probe.ts reads them. */
function proxyOf(url: string, env: NodeJS.ProcessEnv): string | undefined {
  if (!usesProxy(url, env)) return undefined
  return url.startsWith('https:') ? env.HTTPS_PROXY ?? env.https_proxy ?? env.ALL_PROXY ?? env.all_proxy : env.HTTP_PROXY ?? env.http_proxy ?? env.ALL_PROXY ?? env.all_proxy
}

/**
 * How the relay reaches its sources: undici, through the proxy the tool would use, trusting the CA bundle the tool
 * would use (`ca`; Node's own store plus NODE_EXTRA_CA_CERTS when the tool names none). No timeout of its own:
 * nothing is given up for being slow while no other source has answered; the tool's own timeout, which ends its
 * request to the relay, ends the upstream request with it.
 */
export function createUpstream(env: NodeJS.ProcessEnv, ca?: string): { fetch: Upstream; preload(): Promise<unknown>; close(): Promise<void> } {
  let loading: Promise<Undici> | undefined
  const load = () => (loading ??= loadUndici())
  const dispatchers = new Map<string, Promise<Dispatcher>>()
  const tls = ca ? { ca } : {}
  const timeouts = { headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 30_000 }
  const dispatcherFor = (url: string): Promise<Dispatcher> => {
    const proxy = proxyOf(url, env) ?? ''
    let dispatcher = dispatchers.get(proxy)
    if (!dispatcher) {
      dispatcher = load().then(async undici => !proxy ? new undici.Agent({ ...timeouts, connect: tls })
        : /^socks/i.test(proxy) ? await socksAgent(proxy, tls, timeouts)
        : new undici.ProxyAgent({ ...timeouts, uri: proxy, requestTls: tls }))
      dispatchers.set(proxy, dispatcher)
    }
    return dispatcher
  }

  const fetch: Upstream = async (url, init) => {
    const { request } = await load()
    let current = url
    for (let hop = 0; ; hop++) {
      const sameOrigin = new URL(current).origin === new URL(url).origin
      const headers = { ...init.headers, ...(init.authorization && sameOrigin && { authorization: init.authorization }) }
      const response = await request(current, { method: init.method as Dispatcher.HttpMethod, headers, signal: init.signal, body: init.body, dispatcher: await dispatcherFor(current) })
      const location = response.headers.location
      if (!REDIRECTS.has(response.statusCode) || typeof location !== 'string' || hop >= 5 || init.body) {
        return { status: response.statusCode, headers: response.headers, body: response.body, url: current }
      }
      response.body.resume()
      current = new URL(location, current).href
    }
  }
  return {
    fetch,
    preload: () => load().catch(() => undefined),
    close: async () => {
      await Promise.all([...dispatchers.values()].map(dispatcher => dispatcher.then(d => d.close()).catch(() => undefined)))
    },
  }
}
