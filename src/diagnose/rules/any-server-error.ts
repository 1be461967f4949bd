import { hostFacts } from '../evidence.js'
import { SERVER_ERRORS, statusEvidence } from '../http-status.js'
import type { Rule } from '../types.js'

// "Received malformed response from registry ... The registry may be down" is yarn classic's word for a 5xx;
// so is "There appears to be trouble with the npm registry (returned ...). Retrying..." (src/reporters/lang/en.js).
const WORDS = /too many 5\d\d error responses|Bad Gateway|Service Unavailable|Gateway Time-?out|Internal Server Error|The registry may be down|HTTP status server error|trouble with the npm registry/i

export const anyServerError = {
  id: 'any-server-error',
  category: 'server_error',
  tools: 'any',
  summary: 'The index answered with a server error (HTTP 5xx)',
  match: failure => {
    const { hits, evidence } = statusEvidence(failure, SERVER_ERRORS, WORDS)
    if (!evidence.length) return null
    const facts = { ...hostFacts(evidence), status: hits[0]?.status }
    return { evidence, facts, summary: facts.host ? `${facts.host} answered HTTP ${facts.status ?? '5xx'} (a server error)` : undefined }
  },
} satisfies Rule
