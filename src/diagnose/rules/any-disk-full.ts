import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

const DISK_FULL = /\bENOSPC\b|Errno 28\b|No space left on device|not enough space on the disk|WinError 112\b|disk quota exceeded|EDQUOT/i

export const anyDiskFull = {
  id: 'any-disk-full',
  category: 'disk_full',
  tools: 'any',
  summary: 'The disk is full',
  match: failure => {
    const evidence = linesMatching(failure, DISK_FULL)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
