import { hostOf } from './url.js'

// Where each wrapped tool reads its proxy from the environment: the curl/requests convention every tool follows
// (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY, either case), npm's and pnpm's config as environment variables
// (npm_config_proxy, npm_config_https_proxy: docs.npmjs.com "config"), pip's PIP_PROXY (pip's --proxy option as an
// environment variable), yarn's YARN_HTTP(S)_PROXY, cargo's CARGO_HTTP_PROXY (doc.rust-lang.org/cargo "config").
// The tools' own config files are read by the adapters, not here.
const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'npm_config_proxy', 'npm_config_https_proxy', 'PIP_PROXY',
  'YARN_HTTP_PROXY', 'YARN_HTTPS_PROXY', 'CARGO_HTTP_PROXY']

/** The proxies an environment configures, for `Failure.proxies`: the diagnosis calls a failure the proxy's only there. */
export function proxiesFromEnvironment(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = PROXY_VARIABLES.flatMap(name => [env[name], env[name.toLowerCase()], env[name.toUpperCase()]])
  return [...new Set(values.filter((value): value is string => Boolean(value?.trim())).map(value => value.trim()))]
}

/**
 * The proxy the tools use for `url`, the curl/requests convention every one follows: HTTPS_PROXY for https and
 * HTTP_PROXY for http, else ALL_PROXY (http(s):// or socks5://), either case; none when NO_PROXY names the host or
 * a domain above it (`*` for all). The one policy of resilient's own requests: the mirror probes, the index probe and
 * the hedge watch (which skip a proxied index: Node's fetch would go direct), and the relay's upstream.
 */
export function proxyFor(url: string, env: NodeJS.ProcessEnv): string | undefined {
  const proxy = url.startsWith('https:') ? env.HTTPS_PROXY ?? env.https_proxy ?? env.ALL_PROXY ?? env.all_proxy : env.HTTP_PROXY ?? env.http_proxy ?? env.ALL_PROXY ?? env.all_proxy
  if (!proxy) return undefined
  const host = hostOf(url) ?? ''
  const noProxy = (env.NO_PROXY ?? env.no_proxy ?? '').split(',').map(entry => entry.trim().replace(/^\*?\./, '')).filter(Boolean)
  return noProxy.some(entry => entry === '*' || host === entry || host.endsWith(`.${entry}`)) ? undefined : proxy
}

/** Whether the tool reaches `url` through a proxy: Node's fetch would not, and would answer another question. */
export function usesProxy(url: string, env: NodeJS.ProcessEnv): boolean {
  return proxyFor(url, env) !== undefined
}
