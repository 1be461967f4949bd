import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'

/** The network this process runs on, as far as it can be told apart: verdicts from one do not apply to another. */
export interface NetworkIdentity {
  /** Short stable hash of the label; the key in the state file. */
  key: string
  /** `proxy proxy.corp:3128, resolver 10.0.0.1`; `unknown network` when nothing tells it apart. */
  label: string
}

export type ReadText = (path: string) => string | undefined

const readText: ReadText = path => {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

function nameservers(text: string | undefined): string[] {
  return [...(text ?? '').matchAll(/^\s*nameserver\s+(\S+)/gm)].map(match => match[1]!)
}

/** Host and port of the proxy in use, never its credentials. */
function proxyOf(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy ?? env.ALL_PROXY ?? env.all_proxy
  if (!value) return undefined
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`)
    return url.port ? `${url.hostname}:${url.port}` : url.hostname
  } catch {
    return 'unparsable proxy setting'
  }
}

/**
 * The proxy in use and the DNS resolvers (/etc/resolv.conf). systemd-resolved's stub 127.0.0.53 is the same on every
 * network, so its upstream servers (/run/systemd/resolve/resolv.conf) are read instead.
 */
export function currentNetwork(env: NodeJS.ProcessEnv, read: ReadText = readText): NetworkIdentity {
  let resolvers = nameservers(read('/etc/resolv.conf'))
  if (resolvers.length > 0 && resolvers.every(server => server.startsWith('127.0.0.5'))) {
    const upstream = nameservers(read('/run/systemd/resolve/resolv.conf'))
    if (upstream.length > 0) resolvers = upstream
  }
  const parts = [proxyOf(env) && `proxy ${proxyOf(env)}`, resolvers.length > 0 && `resolver ${resolvers.join(' ')}`].filter(Boolean)
  const label = parts.length > 0 ? parts.join(', ') : 'unknown network'
  return { key: createHash('sha256').update(label).digest('hex').slice(0, 12), label }
}
