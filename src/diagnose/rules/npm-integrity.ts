import { hostFacts, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// npm EINTEGRITY, pnpm ERR_PNPM_TARBALL_INTEGRITY, bun "Integrity check failed for tarball": the tarball's sha512 differs
// from the lockfile's (a truncated download, a corrupted cache, or a re-published version on a private registry).
const INTEGRITY = /\bEINTEGRITY\b|integrity checksum failed|ERR_PNPM_(?:ERR_PNPM_)?TARBALL_INTEGRITY|Integrity check failed for tarball|seems to be corrupted/i

export const npmIntegrity = {
  id: 'npm-integrity',
  category: 'hash_mismatch',
  tools: ['npm', 'pnpm', 'bun', 'node'],
  summary: 'A downloaded tarball does not match its integrity hash',
  match: failure => {
    const evidence = linesMatching(failure, INTEGRITY, 2)
    return evidence.length ? { evidence, facts: hostFacts(evidence) } : null
  },
} satisfies Rule
