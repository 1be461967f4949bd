import type { Rule } from '../types.js'
import { findStatuses, statusFacts } from './any-http-status.js'

export const anyServerError = {
  id: 'any-server-error',
  category: 'server_error',
  tools: 'any',
  summary: 'The index answered with a server error (HTTP 5xx)',
  match: failure => {
    const hits = findStatuses(failure, 500, 599)
    const words = failure.lines.filter(line => /too many 5\d\d error responses|Bad Gateway|Service Unavailable|Gateway Time-?out|Internal Server Error/i.test(line)).slice(0, 2)
    if (!hits.length && !words.length) return null
    const facts = statusFacts(failure, hits)
    return { evidence: [...hits.map(hit => hit.line), ...words].slice(0, 3), facts,
      summary: facts.host ? `${facts.host} answered HTTP ${facts.status ?? '5xx'}` : undefined }
  },
} satisfies Rule
