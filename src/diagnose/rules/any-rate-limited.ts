import type { Rule } from '../types.js'
import { findStatuses, statusFacts } from './any-http-status.js'

export const anyRateLimited = {
  id: 'any-rate-limited',
  category: 'rate_limited',
  tools: 'any',
  summary: 'The index is rate-limiting requests (HTTP 429)',
  match: failure => {
    const hits = findStatuses(failure, 429, 429)
    const words = failure.lines.filter(line => /Too Many Requests|rate[- ]limit(?:ed)?/i.test(line)).slice(0, 2)
    if (!hits.length && !words.length) return null
    return { evidence: [...hits.map(hit => hit.line), ...words].slice(0, 3), facts: { ...statusFacts(failure, hits), status: 429 } }
  },
} satisfies Rule
