import { linesMatching } from '../evidence.js'
import { UV_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// uv waits for the lock another uv process holds: "Waiting to acquire lock for" (0.4-0.8), "Waiting to acquire
// exclusive lock for" and, past UV_LOCK_TIMEOUT, "Timeout (300s) when waiting for lock on `...`, is another uv
// process running?" (crates/uv-fs/src/locked_file.rs); `uv cache clean` waits for every other uv process
// (crates/uv/src/commands/cache_clean.rs).
export const uvLockBusy = {
  id: 'uv-lock-busy',
  category: 'lock_busy',
  tools: UV_FAMILY,
  summary: 'Another uv process holds the cache lock',
  match: failure => {
    const evidence = linesMatching(failure, /Waiting to acquire (?:\w+ )?lock for|when waiting for lock on|is another uv process running|Cache is currently in-use|waiting for other uv processes/, 2)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
