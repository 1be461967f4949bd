import { hostFacts, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// getaddrinfo failures in every spelling: glibc, macOS, Windows (WinError 11001/11004), Node (ENOTFOUND, EAI_AGAIN),
// Rust (dns error), Go (no such host). The errno is the stable part of localized messages.
const DNS = /Name or service not known|Temporary failure in name resolution|nodename nor servname|getaddrinfo (?:failed|ENOTFOUND|EAI_AGAIN)|\bENOTFOUND\b|\bEAI_AGAIN\b|Errno -[235]\b|Errno 1100[14]|WinError 1100[14]|Failed to resolve|Could not resolve host|dns error|failed to lookup address|no such host|NameResolutionError|Resolving timed out|Could not resolve proxy/i

export const anyDns = {
  id: 'any-dns',
  category: 'dns',
  tools: 'any',
  summary: 'A host name could not be resolved (DNS)',
  match: failure => {
    const evidence = linesMatching(failure, DNS)
    if (!evidence.length) return null
    const facts = hostFacts(evidence)
    return { evidence, facts: { ...facts, viaProxy: /proxy/i.test(evidence.join('\n')) || undefined },
      summary: facts.host ? `The host ${facts.host} could not be resolved (DNS)` : undefined }
  },
} satisfies Rule
