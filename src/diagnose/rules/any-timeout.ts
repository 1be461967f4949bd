import { hostFacts, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

const TIMEOUT = /Read timed out|ReadTimeoutError|ConnectTimeoutError|timed out\.? \((?:read|connect) timeout|Connection to \S+ timed out|\bETIMEDOUT\b|ESOCKETTIMEDOUT|ERR_SOCKET_TIMEOUT|operation timed out|request timed out|timed out after|TimeoutError|Timeout was reached|network timeout|Socket timeout|i\/o timeout|deadline exceeded|WinError 10060|Errno 110\b|stalled: \d+ bytes/i

export const anyTimeout = {
  id: 'any-timeout',
  category: 'timeout',
  tools: 'any',
  summary: 'The index did not answer in time',
  match: failure => {
    const evidence = linesMatching(failure, TIMEOUT)
    if (!evidence.length) return null
    const facts = hostFacts(evidence)
    return { evidence, facts, summary: facts.host ? `${facts.host} did not answer in time` : undefined }
  },
} satisfies Rule
