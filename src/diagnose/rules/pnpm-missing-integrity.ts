import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// pnpm 10 refuses lockfile entries that carry no `integrity` field (tarball URLs): a policy, not a corrupted
// download, so it must not read as a hash mismatch (ERR_PNPM_TARBALL_INTEGRITY is the corrupted one).
export const pnpmMissingIntegrity = {
  id: 'pnpm-missing-integrity',
  category: 'other',
  tools: ['pnpm'],
  summary: 'A lockfile entry has no integrity field, so pnpm refuses to install it',
  match: failure => {
    const evidence = linesMatching(failure, /ERR_PNPM_MISSING_TARBALL_INTEGRITY|has no "integrity" field/)
    return evidence.length ? { evidence } : null
  },
  remedy: { kind: 'give-up', hint: 'Regenerate the lockfile entry: run pnpm install without --frozen-lockfile once (it records the integrity), review the diff, and commit pnpm-lock.yaml.' },
} satisfies Rule
