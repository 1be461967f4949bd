import { hostFacts, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// A truncated or corrupted download surfaces as a hash mismatch (measured: pip 18-24 against a local server
// that cuts the body short). The remedy re-downloads elsewhere without the cache; hash checking is never weakened.
export const pipHashMismatch = {
  id: 'pip-hash-mismatch',
  category: 'hash_mismatch',
  tools: ['pip', 'pipx', 'poetry', 'pdm'],
  summary: 'A downloaded file does not match its expected hash (truncated or corrupted download)',
  match: failure => {
    const evidence = linesMatching(failure, /DO NOT MATCH THE HASHES|hash mismatch|Expected sha256|^\s*Got\s+[0-9a-f]{8,}/i, 4)
    if (!evidence.length) return null
    const fileLines = linesMatching(failure, /\bfrom https?:\/\/\S+\.(whl|tar\.gz|zip)/i, 2)
    return { evidence: [...evidence, ...fileLines].slice(0, 5), facts: hostFacts(fileLines) }
  },
} satisfies Rule
