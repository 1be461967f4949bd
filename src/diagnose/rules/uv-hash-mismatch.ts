import { firstCapture, linesMatching } from '../evidence.js'
import { UV_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// uv: "Hash mismatch for `click==8.3.1`" followed by Expected:/Computed: blocks.
export const uvHashMismatch = {
  id: 'uv-hash-mismatch',
  category: 'hash_mismatch',
  tools: UV_FAMILY,
  summary: 'A downloaded file does not match its expected hash (truncated or corrupted download)',
  match: failure => {
    const evidence = linesMatching(failure, /Hash mismatch for `|hash mismatch for /i, 2)
    if (!evidence.length) return null
    const spec = firstCapture(evidence, /for `([^`]{1,200})`/)
    const [name, version] = (spec ?? '').split('==')
    return { evidence, facts: { package: name || undefined, version },
      summary: spec ? `The download of ${spec} does not match its expected hash (truncated or corrupted)` : undefined }
  },
} satisfies Rule
