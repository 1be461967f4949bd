import type { SecureContext } from 'node:tls'
import { extraCaCertsDeferred, ownTrust } from '../own-trust.js'
import { proxyFor } from '../proxies.js'
import { isLoopback } from '../url.js'

type Fetch = typeof globalThis.fetch

/**
 * resilient's own fetch, for a URL it reaches directly: Node's, which trusts Node's store, NODE_EXTRA_CA_CERTS
 * included; where the launcher kept that file from Node's start (src/own-trust.ts), undici's, with that trust.
 */
export async function ownFetch(): Promise<Fetch> {
  if (!extraCaCertsDeferred()) return globalThis.fetch
  const [undici, trust] = await Promise.all([import('undici'), ownTrust()])
  // One Agent per trust, not per call: probes ask for this fetch per request, and a new Agent each time kept no
  // connection alive between them.
  if (deferredFetch && deferredFetch.trust === trust.secureContext) return deferredFetch.fetch
  const dispatcher = new undici.Agent({ connect: trust })
  const fetch = ((input: string, init: RequestInit) => undici.fetch(input, { ...(init as object), dispatcher })) as unknown as Fetch
  deferredFetch = { trust: trust.secureContext, fetch }
  return fetch
}

let deferredFetch: { trust: SecureContext | undefined; fetch: Fetch } | undefined

/**
 * The fetch a mirror probe uses: the same path the tools take. Node's fetch ignores proxy variables, so a URL the
 * tools reach through a proxy (src/proxies.ts) goes through it with undici: HTTP CONNECT, or SOCKS for socks://.
 */
export async function fetchFor(env: NodeJS.ProcessEnv): Promise<Fetch> {
  if (!['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY'].some(name => env[name] ?? env[name.toLowerCase()])) return ownFetch()
  const [undici, direct, trust] = await Promise.all([import('undici'), ownFetch(), ownTrust()])
  const agents = new Map<string, Promise<import('undici').Dispatcher>>()
  const agentFor = (proxy: string) => {
    if (!agents.has(proxy)) agents.set(proxy, /^socks/i.test(proxy) ? socksAgent(proxy, trust) : Promise.resolve(new undici.ProxyAgent({ uri: proxy, requestTls: trust, proxyTls: trust })))
    return agents.get(proxy)!
  }
  return (async (input: string, init: RequestInit) => {
    const proxy = proxyFor(String(input), env)
    return proxy ? undici.fetch(input, { ...(init as object), dispatcher: await agentFor(proxy) }) : direct(input, init)
  }) as unknown as Fetch
}

/**
 * An undici Agent whose connections go through a SOCKS proxy (the `socks` client), TLS on top for https (`tls`: a CA
 * bundle to trust instead of Node's, or a secure context: src/own-trust.ts); `agent` adds the Agent's own options
 * (the relay's timeouts).
 */
export async function socksAgent(proxyUrl: string, tlsOptions: { ca?: string; secureContext?: SecureContext } = {}, agent: Record<string, unknown> = {}) {
  const [{ Agent, buildConnector }, { SocksClient }] = await Promise.all([import('undici'), import('socks')])
  const proxy = new URL(proxyUrl)
  const tls = buildConnector(tlsOptions)
  type Options = Parameters<typeof tls>[0]
  type Callback = Parameters<typeof tls>[1]
  return new Agent({
    ...agent,
    connect: (options: Options, callback: Callback) => {
      const secure = options.protocol === 'https:'
      SocksClient.createConnection({
        proxy: { host: proxy.hostname, port: Number(proxy.port || 1080), type: /^socks4/i.test(proxy.protocol) ? 4 : 5,
          userId: decodeURIComponent(proxy.username) || undefined, password: decodeURIComponent(proxy.password) || undefined },
        command: 'connect',
        destination: { host: options.hostname, port: Number(options.port) || (secure ? 443 : 80) },
      }).then(({ socket }) => secure ? tls({ ...options, httpSocket: socket } as Options, callback) : callback(null, socket), error => callback(error as Error, null))
    },
  })
}

/**
 * Whether a probe may send the mirror's credentials: never over plain http to another machine, where anyone on
 * the path reads them (loopback excepted: nothing leaves the machine).
 */
export function maySendCredentials(url: string): boolean {
  return !/^http:/i.test(url) || isLoopback(url)
}
