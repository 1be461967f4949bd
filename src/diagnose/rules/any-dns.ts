import { hostFacts, linesMatching } from '../evidence.js'
import { withoutProxyFailures } from '../proxy-host.js'
import type { Rule } from '../types.js'

// getaddrinfo failures in every spelling: glibc, musl ("Name does not resolve"), macOS, Windows (11001/11004, also
// localized: the errno annotation adds EAI_NONAME), Node (ENOTFOUND, EAI_AGAIN), curl (error 6), Rust ("dns
// error", "failed to lookup address information"), Go ("no such host", "server misbehaving").
const DNS = /Name or service not known|Temporary failure in name resolution|Name does not resolve|nodename nor servname|No such host is known|getaddrinfo (?:failed|ENOTFOUND|EAI_AGAIN)|\bENOTFOUND\b|\bEAI_(?:AGAIN|NONAME|NODATA)\b|Could(?: not|n't) resolve host|Could not resolve hostname|\bdns error\b|failed to lookup address|no such host|dial (?:tcp|udp): lookup [^\s:]{1,253}(?: on \S{1,60})?: |NameResolutionError|Resolving timed out|Temporary failure resolving|DNSResolveFailed/i

export const anyDns = {
  id: 'any-dns',
  category: 'dns',
  tools: 'any',
  summary: 'A host name could not be resolved (DNS)',
  match: failure => {
    // A proxy name that does not resolve is the proxy's failure (any-proxy-host).
    const evidence = withoutProxyFailures(failure, linesMatching(failure, DNS))
    if (!evidence.length) return null
    const facts = hostFacts(evidence)
    return { evidence, facts, summary: facts.host ? `The host ${facts.host} could not be resolved (DNS)` : undefined }
  },
} satisfies Rule
