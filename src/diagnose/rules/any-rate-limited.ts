import { statusEvidence } from '../http-status.js'
import { hostFacts } from '../evidence.js'
import type { Rule } from '../types.js'

const WORDS = /Too Many Requests|rate[- ]limit(?:ed|ing)?\b|RATE LIMIT EXCEEDED|exceeds our rate limits/i

export const anyRateLimited = {
  id: 'any-rate-limited',
  category: 'rate_limited',
  tools: 'any',
  summary: 'The index is rate-limiting requests (HTTP 429)',
  match: failure => {
    const { hits, evidence } = statusEvidence(failure, [429], WORDS)
    if (!evidence.length) return null
    const facts = { ...hostFacts(evidence), status: 429 }
    return { evidence, facts, summary: facts.host ? `${facts.host} is rate-limiting requests (HTTP 429)` : hits.length ? undefined : 'The index is rate-limiting requests' }
  },
} satisfies Rule
