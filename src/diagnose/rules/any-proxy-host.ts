import { proxyFailureLine } from '../proxy-host.js'
import type { Rule } from '../types.js'

// The proxy host itself failed (its name did not resolve, its port refused): another mirror cannot help, because
// every request goes through it. Only a configured proxy, or one the tool shows it used, is called the proxy:
// src/diagnose/proxy-host.ts.
export const anyProxyHost = {
  id: 'any-proxy-host',
  category: 'proxy',
  tools: 'any',
  summary: 'The proxy could not be reached or resolved (the index is not at fault)',
  match: failure => {
    const found = proxyFailureLine(failure)
    if (!found) return null
    return { evidence: [found.line], facts: { host: found.host, viaProxy: true, hostRole: 'proxy' },
      summary: `The proxy ${found.host} could not be reached or resolved (the index is not at fault)` }
  },
} satisfies Rule
