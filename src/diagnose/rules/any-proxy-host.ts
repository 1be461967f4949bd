import { hostFacts } from '../evidence.js'
import { proxyFailureLine } from '../proxy-host.js'
import type { Rule } from '../types.js'

// The proxy host itself failed (its name did not resolve, its port refused): another mirror cannot help, because
// every request goes through it. How the proxy is told from the index: src/diagnose/proxy-host.ts.
export const anyProxyHost = {
  id: 'any-proxy-host',
  category: 'proxy',
  tools: 'any',
  summary: 'The proxy could not be reached or resolved (the index is not at fault)',
  match: failure => {
    const line = proxyFailureLine(failure)
    if (!line) return null
    const host = hostFacts([line]).host ?? /Failed to connect to ([\w.-]+)/.exec(line)?.[1]
    return { evidence: [line], facts: { host, viaProxy: true, hostRole: 'proxy' },
      summary: host ? `The proxy ${host} could not be reached or resolved (the index is not at fault)` : undefined }
  },
} satisfies Rule
