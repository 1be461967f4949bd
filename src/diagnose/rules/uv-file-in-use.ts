import { linesMatching } from '../evidence.js'
import { UV_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// On Windows, uv writes a cache entry to a temporary file and renames it; while another uv process (or a virus
// scanner) holds the target open, the rename fails with "Access is denied (os error 5)" or a sharing violation
// (os error 32). It reads like a permission problem, but it passes once the other process is done
// (astral-sh/uv#8664).
const IN_USE = /Failed to persist temporary file[^\n]{0,400}\(os error (?:5|32)\)/

export const uvFileInUse = {
  id: 'uv-file-in-use',
  category: 'lock_busy',
  tools: UV_FAMILY,
  summary: 'Another process holds a file uv must replace (Windows file locking)',
  match: failure => {
    const evidence = linesMatching(failure, IN_USE, 2)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
