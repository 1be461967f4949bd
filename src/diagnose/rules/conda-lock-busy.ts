import { linesMatching } from '../evidence.js'
import { CONDA_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// Old conda refuses to start while its lock file exists; conda-build waits on `.conda_lock` files; libmamba (mamba,
// micromamba) says "Cannot lock '<path>'" and "LockFile acquisition failed" (libmamba/src/core/util.cpp).
export const condaLockBusy = {
  id: 'conda-lock-busy',
  category: 'lock_busy',
  tools: CONDA_FAMILY,
  summary: 'Another conda process holds its lock (or left a stale lock file)',
  match: failure => {
    const evidence = linesMatching(failure, /conda is already doing something|The lockfile \S{1,400} was found|\.conda_lock\b[^\n]{0,80}(?:could not be acquired|exists)|LockError: |Cannot lock '[^'\n]{1,400}'|LockFile acquisition failed|Could not (?:lock|acquire lock) /, 2)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
