import { hostFacts, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// Wording shared across ecosystems: Go's "verifying module: checksum mismatch" (and its SECURITY ERROR), cargo's
// "failed to verify the checksum of `crate`", generic "hash/checksum mismatch" lines, and zlib's "unexpected end of
// file" (Z_BUF_ERROR, Node's lib/zlib.js) with which npm, pnpm and yarn report a truncated tarball: the download
// arrived cut short, the same remedy as a corrupted one (another source, no cache); not hyper-util's proxy tunnel cut
// short ("tunnel error: unexpected end of file"), which is the proxy's. uv extracts a wheel while it downloads, so a
// corrupted or cut body surfaces as the inflater's "unexpected BufError" (async-compression's flate decoder: no
// progress on the input) or as a zip entry whose CRC differs ("Bad CRC (got ..., expected ...)", uv-extract). poetry 2
// says its downloads "did not match any known checksums in your lock file" (src/poetry/installation/chooser.py) and
// names a corrupted cache or download as the causes. poetry 1.3 reads a wheel's metadata from its download while it
// locks, and urllib3 1.x does not check Content-Length: a download cut short reaches Python's zipfile, "File is not a
// zip file" (BadZipFile; src/poetry/repositories/http_repository.py _get_info_from_wheel).
const MISMATCH = /\bFile is not a zip file\b|checksum mismatch|failed to verify the checksum|\bhash mismatch\b|SECURITY ERROR|checksum (?:for `[^`\n]{1,200}` )?changed between lock files|not found in known hashes|Invalid hashes \(|(?<!tunnel error: )\bunexpected end of file\b|\bZ_BUF_ERROR\b|\bunexpected BufError\b|Bad CRC \(got [\da-f]{1,8}, expected|did not match any known checksums in your lock file/i

export const anyHashMismatch = {
  id: 'any-hash-mismatch',
  category: 'hash_mismatch',
  tools: 'any',
  summary: 'A downloaded file does not match its checksum (truncated or corrupted download)',
  match: failure => {
    const evidence = linesMatching(failure, MISMATCH, 3)
    return evidence.length ? { evidence, facts: hostFacts(evidence) } : null
  },
} satisfies Rule
