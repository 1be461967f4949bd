import { isLoopback } from '../url.js'

type Fetch = typeof globalThis.fetch

/**
 * The fetch a mirror probe uses: the same path the tools take. Node's fetch ignores proxy variables, so behind
 * HTTP(S)_PROXY undici's EnvHttpProxyAgent is used, and ALL_PROXY (http(s):// or socks5://, as curl and pip read
 * it) when neither is set; NO_PROXY applies to the first.
 */
export async function fetchFor(env: NodeJS.ProcessEnv): Promise<Fetch> {
  const httpsProxy = env.HTTPS_PROXY ?? env.https_proxy
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy
  const allProxy = env.ALL_PROXY ?? env.all_proxy
  if (!httpsProxy && !httpProxy && !allProxy) return globalThis.fetch
  const undici = await import('undici')
  const noProxy = env.NO_PROXY ?? env.no_proxy
  const dispatcher = allProxy && !httpsProxy && !httpProxy && /^socks/i.test(allProxy)
    ? await socksAgent(allProxy)
    : new undici.EnvHttpProxyAgent({ httpsProxy: httpsProxy ?? allProxy, httpProxy: httpProxy ?? allProxy, noProxy })
  return ((input: string, init: RequestInit) => undici.fetch(input, { ...(init as object), dispatcher })) as unknown as Fetch
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
