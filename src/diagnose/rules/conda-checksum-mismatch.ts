import { hostFacts, linesMatching } from '../evidence.js'
import { CONDA_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// conda: ChecksumMismatchError (new), MD5MismatchError (old), SafetyError for a corrupted extracted package in the
// cache. Mirrors out of sync serve empty or stale files (tuna/issues#252: md5 d41d8cd9... is the empty file).
// libmamba checks each tarball's size and checksum: "<file> tarball has incorrect size" (or checksum: 1.5's
// core/package_download.cpp; sha256, md5: 2.x's core/package_fetcher.cpp), before "Found incorrect download(s)".
const MISMATCH = /ChecksumMismatchError|MD5MismatchError|mismatch between the expected content and downloaded content|SafetyError: |has an? (?:sha256|md5) mismatch|appears to be corrupted|tarball has incorrect (?:size|checksum|sha256|md5)\b/

export const condaChecksumMismatch = {
  id: 'conda-checksum-mismatch',
  category: 'hash_mismatch',
  tools: CONDA_FAMILY,
  summary: 'A downloaded package does not match its checksum (corrupted download or a stale mirror)',
  match: failure => {
    const evidence = linesMatching(failure, MISMATCH, 2)
    if (!evidence.length) return null
    const urlLines = linesMatching(failure, /^for url '/, 1)
    return { evidence: [...evidence, ...urlLines], facts: hostFacts(urlLines) }
  },
} satisfies Rule
