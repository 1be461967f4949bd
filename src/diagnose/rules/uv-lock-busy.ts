import { linesMatching } from '../evidence.js'
import { UV_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// uv waits, without a time limit, for the cache lock another uv process holds (astral-sh/uv#16112, #16138).
export const uvLockBusy = {
  id: 'uv-lock-busy',
  category: 'lock_busy',
  tools: UV_FAMILY,
  summary: 'Another uv process holds the cache lock',
  match: failure => {
    const evidence = linesMatching(failure, /Waiting to acquire lock for|Cache is currently in-use|waiting for other uv processes/, 2)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
