import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// Checked before network rules: yarn classic follows ENOSPC with "trouble with your network connection".
const DISK_FULL = /\bENOSPC\b|No space left on device|Disk quota exceeded/i

export const anyDiskFull = {
  id: 'any-disk-full',
  category: 'disk_full',
  tools: 'any',
  summary: 'The disk (or the quota) is full',
  match: failure => {
    const evidence = linesMatching(failure, DISK_FULL)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
