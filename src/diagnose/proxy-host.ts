import { evidenceLine, hostFacts } from './evidence.js'
import { hostRole } from './facts.js'
import type { NormalizedFailure } from './types.js'

// A lookup or a connection that fails on a host other than the index's is the proxy failing:
// - npm names the URL and the host it tried to resolve: "request to https://registry.../x failed, reason:
//   getaddrinfo ENOTFOUND server" is a leftover proxy setting; so is a host called proxy.* (not a package proxy).
// - a refused or timed-out connection to a port that no URL of the output uses, and that is not 80/443, is a
//   proxy's port (squid's 3128, a dead local proxy): Node prints "connect ECONNREFUSED 10.0.0.1:3128", curl (cargo)
//   "Failed to connect to 127.0.0.1 port 9".
const LOOKUP = /getaddrinfo (?:ENOTFOUND|EAI_AGAIN)/
const CONNECT = /\bconnect (?:ECONNREFUSED|ETIMEDOUT|ECONNRESET) ([\w.-]{1,253}):(\d{1,5})\b|Failed to connect to ([\w.-]{1,253}) port (\d{1,5})\b/
const URL_PORT = /\bhttps?:\/\/[^\s/'"`<>()]{1,300}/g

function urlPorts(failure: NormalizedFailure): Set<string> {
  const ports = new Set<string>()
  for (const url of (failure.fullText ?? failure.text).match(URL_PORT) ?? []) {
    try {
      const parsed = new URL(url)
      ports.add(parsed.port || (parsed.protocol === 'https:' ? '443' : '80'))
    } catch {
      // not a URL
    }
  }
  return ports
}

/** The line showing that the proxy, not the index, failed; undefined when nothing shows it. */
export function proxyFailureLine(failure: NormalizedFailure): string | undefined {
  let ports: Set<string> | undefined
  for (const line of failure.lines) {
    const connect = CONNECT.exec(line)
    if (connect) {
      const port = connect[2] ?? connect[4]!
      ports ??= urlPorts(failure)
      if (port !== '80' && port !== '443' && !ports.has(port)) return evidenceLine(line)
      continue
    }
    if (!LOOKUP.test(line)) continue
    const { host, url } = hostFacts([line])
    if (!host) continue
    const otherHost = url !== undefined && new URL(url).hostname !== host
    const namedProxy = /(?:^|[.-])(?:web)?(?:proxy|squid)/i.test(host) && !hostRole(host, failure)
    if (otherHost || namedProxy) return evidenceLine(line)
  }
  return undefined
}
