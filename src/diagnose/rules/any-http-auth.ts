import type { Rule } from '../types.js'
import { findStatuses, statusFacts } from './any-http-status.js'

// A public mirror's 403 is usually an anti-abuse block (another mirror helps); a private index's 401/403 needs
// credentials. The rule only reads the status; src/retry/policy.ts decides by the source.
export const anyHttpAuth = {
  id: 'any-http-auth',
  category: 'http_auth',
  tools: 'any',
  summary: 'The index refused access (HTTP 401/403)',
  match: failure => {
    const hits = findStatuses(failure, 401, 403).filter(hit => hit.status !== 402)
    const words = failure.lines.filter(line => /\bUnauthorized\b|\bForbidden\b|authentication required|E401|E403/i.test(line) && !/proxy/i.test(line)).slice(0, 2)
    if (!hits.length && !words.length) return null
    const facts = statusFacts(failure, hits)
    return { evidence: [...hits.map(hit => hit.line), ...words].slice(0, 3), facts,
      summary: facts.host ? `${facts.host} refused access (HTTP ${facts.status ?? '401/403'})` : undefined }
  },
} satisfies Rule
