import { proxyFor } from '../proxies.js'
import { isLoopback } from '../url.js'

type Fetch = typeof globalThis.fetch

/**
 * The fetch a mirror probe uses: the same path the tools take. Node's fetch ignores proxy variables, so a URL the
 * tools reach through a proxy (src/proxies.ts) goes through it with undici: HTTP CONNECT, or SOCKS for socks://.
 */
export async function fetchFor(env: NodeJS.ProcessEnv): Promise<Fetch> {
  if (!['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY'].some(name => env[name] ?? env[name.toLowerCase()])) return globalThis.fetch
  const undici = await import('undici')
  const agents = new Map<string, Promise<import('undici').Dispatcher>>()
  const agentFor = (proxy: string) => {
    if (!agents.has(proxy)) agents.set(proxy, /^socks/i.test(proxy) ? socksAgent(proxy) : Promise.resolve(new undici.ProxyAgent(proxy)))
    return agents.get(proxy)!
  }
  return (async (input: string, init: RequestInit) => {
    const proxy = proxyFor(String(input), env)
    return undici.fetch(input, { ...(init as object), ...(proxy && { dispatcher: await agentFor(proxy) }) })
  }) as unknown as Fetch
}

/**
 * An undici Agent whose connections go through a SOCKS proxy (the `socks` client), TLS on top for https (`tls`: a CA
 * bundle to trust instead of Node's); `agent` adds the Agent's own options (the relay's timeouts).
 */
export async function socksAgent(proxyUrl: string, tlsOptions: { ca?: string } = {}, agent: Record<string, unknown> = {}) {
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
