import { hostFacts, linesMatching } from '../evidence.js'
import { findStatuses } from '../http-status.js'
import type { Rule } from '../types.js'

// Connect and read timeouts of urllib3, requests, Node, libcurl (error 28), reqwest/uv, Go, and errno ETIMEDOUT
// (also localized: the errno annotation adds the name). HTTP 408 is the server giving up waiting (pnpm
// ERR_PNPM_FETCH_408). Checked before connection rules: "('Connection aborted.', TimeoutError(60, ...))" is a timeout.
// A name lookup that timed out (libcurl's "Resolving timed out after N milliseconds" under error 28, Go's "lookup <name>
// on <server>: read udp ...: i/o timeout") is any-dns's.
const LOOKUP_TIMED_OUT = /Resolving timed out|\blookup [^\s:]{1,253} on [^\s]{1,60}: [^\n]{0,200}i\/o timeout/
const TIMEOUT = /Read timed out|ReadTimeoutError|ConnectTimeoutError|ReadTimeout\b|ConnectTimeout\b|timed out\.? \((?:read|connect) timeout|Connection to \S{1,253} timed out|\bETIMEDOUT\b|ESOCKETTIMEDOUT|SOCKET_TIMEOUT|[Oo]peration timed out|read operation timed out|TimeoutError|socket\.timeout|Timeout was reached|network timeout|UV_HTTP_TIMEOUT|i\/o timeout|Download error \(28\)|\[28\]|timed out after \d|[Cc]onnection timed out|Request Timeout|Timeout awaiting '|TLS handshake timeout|SOCKET_CONNECTION_TIMEOUT|Socket connection timeout|\bWSAETIMEDOUT\b/

export const anyTimeout = {
  id: 'any-timeout',
  category: 'timeout',
  tools: 'any',
  summary: 'The index did not answer in time',
  match: failure => {
    const evidence = linesMatching(failure, TIMEOUT)
    if (!evidence.length) evidence.push(...findStatuses(failure, [408]).map(hit => hit.line))
    if (!evidence.length || linesMatching(failure, LOOKUP_TIMED_OUT, 1).length) return null
    const facts = hostFacts(evidence)
    return { evidence, facts, summary: facts.host ? `${facts.host} did not answer in time` : undefined }
  },
} satisfies Rule
