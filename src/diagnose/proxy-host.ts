import { evidenceLine } from './evidence.js'
import type { NormalizedFailure } from './types.js'

// A failure is the proxy's only when a proxy is configured and the failing address is that proxy: a refused registry
// on localhost:4873 (a stopped local Verdaccio, test/fixtures/output/yarn/captured-connection-refused-local.txt) is
// not a proxy because its address "looks like" one. Configured means one of:
// - given by the caller: `Failure.proxies` (HTTPS_PROXY and friends, the tool's own proxy setting), or `--proxy` on the
//   command line;
// - shown by the tool itself: Node's fetch (npm, pnpm) prints "request to <url> failed, reason: <cause>" with the
//   address it really contacted; a lookup of another name than the URL's, or a connection to another port than the
//   URL's (other than 80/443: an http → https redirect), is where the tool sent the request instead, its proxy.
//   npm 2 to 6 log each registry request on a line of its own ("http request GET <url>", npm-registry-client; its
//   `http` level prefix is removed by normalisation), and the error later ("info retry will retry, error on last
//   attempt: Error: connect ECONNREFUSED 10.0.0.1:3128"): an address that is none of the logged requests' is read
//   the same way.
// Node prints resolved addresses ("connect ECONNREFUSED 10.0.0.1:3128" for proxy.corp:3128): a configured proxy
// given by name matches an IP address on its port.

interface Address {
  host: string
  port?: string
}

const CONNECT = /\bconnect E[A-Z]+ \[?([\w.:-]{1,253})\]?:(\d{1,5})\b|Failed to connect to ([\w.-]{1,253}) port (\d{1,5})\b|\bdial tcp \[?([\w.:-]{1,253})\]?:(\d{1,5}): |getaddrinfo (?:ENOTFOUND|EAI_AGAIN|ENODATA)(?: |: )([\w.-]{1,253})(?::(\d{1,5}))?/
const REQUEST = /request to (https?:\/\/[^\s,'"]{1,500}) failed, reason: /
const LOGGED_REQUEST = /^request (?:GET|HEAD|PUT|POST) (https?:\/\/[^\s,'"]{1,500})/
const IP = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[\da-f:]*:[\da-f:]+)$/i

function failingAddress(line: string): Address | undefined {
  const match = CONNECT.exec(line)
  if (!match) return undefined
  const [host, port] = [match[1] ?? match[3] ?? match[5] ?? match[7], match[2] ?? match[4] ?? match[6] ?? match[8]]
  return host ? { host: host.toLowerCase(), port } : undefined
}

/** `http://user:secret@proxy.corp:3128`, `proxy.corp:3128` or `proxy.corp` as an address (credentials dropped). */
export function proxyAddress(value: string): Address | undefined {
  try {
    const url = new URL(/^[a-z][\w+.-]*:\/\//i.test(value) ? value : `http://${value}`)
    return { host: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port: url.port || (url.protocol === 'https:' ? '443' : '80') }
  } catch {
    return undefined
  }
}

function configuredProxies(failure: NormalizedFailure): Address[] {
  const command = failure.command ?? []
  const fromCommand = command.flatMap((arg, index) => (arg === '--proxy' ? [command[index + 1] ?? ''] : arg.startsWith('--proxy=') ? [arg.slice(8)] : []))
  return [...(failure.proxies ?? []), ...fromCommand].map(proxyAddress).filter((address): address is Address => Boolean(address))
}

function isProxy(address: Address, proxies: readonly Address[]): boolean {
  return proxies.some(proxy => (proxy.host === address.host && (!address.port || proxy.port === address.port))
    || (IP.test(address.host) && !IP.test(proxy.host) && address.port !== undefined && proxy.port === address.port))
}

/** Whether `address` cannot be where a request for `url` went: another name looked up, or a port that is not the URL's. */
function elsewhereThan(url: string, address: Address, lookup: boolean): boolean {
  try {
    const parsed = new URL(url)
    const urlPort = parsed.port || (parsed.protocol === 'https:' ? '443' : '80')
    if (lookup) return parsed.hostname.toLowerCase() !== address.host
    return address.port !== undefined && address.port !== urlPort && address.port !== '80' && address.port !== '443'
  } catch {
    return false
  }
}

/** Whether the tool itself shows that it sent the request elsewhere than the URL it names, or than every URL it logged. */
function sentElsewhere(line: string, address: Address, logged: readonly string[]): boolean {
  const lookup = /getaddrinfo/.test(line)
  const url = REQUEST.exec(line)?.[1]
  if (url) return elsewhereThan(url, address, lookup)
  return logged.length > 0 && logged.every(requested => elsewhereThan(requested, address, lookup))
}

/** Every line that shows the proxy failing, with the proxy's host, in order. */
function proxyFailures(failure: NormalizedFailure): { line: string; host: string }[] {
  const proxies = configuredProxies(failure)
  const logged = failure.lines.flatMap(line => LOGGED_REQUEST.exec(line)?.[1] ?? [])
  return failure.lines.flatMap(line => {
    const address = failingAddress(line)
    return address && (isProxy(address, proxies) || sentElsewhere(line, address, logged)) ? [{ line: evidenceLine(line), host: address.host }] : []
  })
}

/** The line showing that the configured proxy, not the index, failed; undefined when nothing shows it. */
export function proxyFailureLine(failure: NormalizedFailure): { line: string; host: string } | undefined {
  return proxyFailures(failure)[0]
}

/** Drops the lines that are the proxy's failure: a refused or unresolved proxy is not the index's connection or DNS. */
export function withoutProxyFailures(failure: NormalizedFailure, lines: string[]): string[] {
  const failed = new Set(proxyFailures(failure).map(found => found.line))
  return lines.filter(line => !failed.has(line))
}
