import { hostFacts, linesMatching } from '../evidence.js'
import { PIP_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// A truncated or corrupted download surfaces as a hash mismatch (measured: pip 18-24 against a local server that
// cuts the body short). The remedy re-downloads elsewhere without the cache; hash checking is never weakened.
export const pipHashMismatch = {
  id: 'pip-hash-mismatch',
  category: 'hash_mismatch',
  tools: PIP_FAMILY,
  summary: 'A downloaded file does not match its expected hash (truncated or corrupted download)',
  match: failure => {
    const evidence = linesMatching(failure, /DO NOT MATCH THE HASHES|^\s*Expected sha256 [0-9a-f]{8}|^\s*Got\s+[0-9a-f]{16}/, 3)
    if (!evidence.length) return null
    const fileLines = linesMatching(failure, /\bfrom https?:\/\/\S{1,500}\.(?:whl|tar\.gz|zip|tar\.bz2)\b/, 1)
    const name = /^\s*(\S+?)(?:==\S+)? from https?:/.exec(fileLines[0] ?? '')?.[1]
    return { evidence: [...evidence, ...fileLines].slice(0, 4), facts: { ...hostFacts(fileLines), package: name },
      summary: name ? `The download of ${name} does not match its expected hash (truncated or corrupted)` : undefined }
  },
} satisfies Rule
