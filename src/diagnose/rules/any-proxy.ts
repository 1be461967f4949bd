import { hostFacts, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// urllib3 wraps the real cause: `ProxyError('Cannot connect to proxy.', ConnectionResetError(...))` is a proxy
// problem, not a network one; so is a 407, a failed CONNECT tunnel, and conda's "error in your proxy configuration".
const PROXY = /ProxyError|Cannot connect to proxy|Unable to connect to proxy|Tunnel connection failed|\b407 Proxy Authentication|Proxy Authentication Required|\bE407\b|code 407\b|error in your proxy configuration|CONNECT tunnel failed|Could(?: not|n't) resolve proxy|proxyconnect tcp|Proxy CONNECT aborted|(?:Failed|failed|error) (?:to connect|connecting) to proxy|tunneling socket could not be established|proxy (?:authentication|connection) (?:failed|refused|required)|Received HTTP code 407 from proxy/

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
