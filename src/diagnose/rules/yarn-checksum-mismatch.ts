import { linesMatching } from '../evidence.js'
import { YARN_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// yarn berry YN0018 (CACHE_CHECKSUM_MISMATCH) and yarn classic's "Incorrect integrity" / "Integrity check failed".
const MISMATCH = /\bYN0018: |doesn't match the expected checksum|Incorrect integrity when fetching|Integrity check failed|the file appears to be corrupt/i

export const yarnChecksumMismatch = {
  id: 'yarn-checksum-mismatch',
  category: 'hash_mismatch',
  tools: YARN_FAMILY,
  summary: "A package archive does not match the lockfile's checksum",
  match: failure => {
    const evidence = linesMatching(failure, MISMATCH, 2)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
