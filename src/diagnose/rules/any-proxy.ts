import { hostFacts, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// urllib3 wraps the real cause: `ProxyError('Cannot connect to proxy.', ConnectionResetError(...))` is a proxy
// problem, not a network one; so is a 407 or a failed CONNECT tunnel.
const PROXY = /ProxyError|Cannot connect to proxy|Tunnel connection failed|407 Proxy Authentication|Proxy Authentication Required|proxy (?:authentication|connect(?:ion)?) (?:failed|error|refused)|ERR_PNPM_.*PROXY|ECONNREFUSED.*proxy|error connecting to proxy|failed to connect to proxy|unable to connect to proxy/i

export const anyProxy = {
  id: 'any-proxy',
  category: 'proxy',
  tools: 'any',
  summary: 'The HTTP proxy refused or failed the request',
  match: failure => {
    const evidence = linesMatching(failure, PROXY)
    return evidence.length ? { evidence, facts: { ...hostFacts(evidence), viaProxy: true } } : null
  },
} satisfies Rule
