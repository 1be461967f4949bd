import { hostFacts } from '../evidence.js'
import { findStatuses } from '../http-status.js'
import type { Rule } from '../types.js'

// HTTP 404/410 for a package page or file: the index does not have it. From a mirror it may be lag (tuna dropped
// old .tar.bz2 files, npmmirror had not synced a new tarball): the remedy tries the upstream once. Late in RULES:
// verbose logs show 404s from extra indexes on the way to other failures.
export const anyHttpNotFound = {
  id: 'any-http-not-found',
  category: 'package_not_found',
  tools: 'any',
  summary: 'The index answered 404 Not Found for the package or file',
  match: failure => {
    const hits = findStatuses(failure, [404, 410])
    if (!hits.length) return null
    const evidence = hits.map(hit => hit.line)
    const facts = { ...hostFacts(evidence), status: hits[0]!.status, absence: 'status' as const }
    return { evidence, facts, summary: facts.host ? `${facts.host} answered ${facts.status} Not Found` : undefined }
  },
} satisfies Rule
