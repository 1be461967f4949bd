import { linesMatching } from '../evidence.js'
import { CONDA_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// Old conda refuses to start while its lock file exists ("The lock <path> was found. Wait for it to finish", conda
// 4.1-4.3 conda/lock.py); conda-build waits on `.conda_lock` files (2.0: "File lock could on <path> not be obtained",
// conda_build/cli/main_build.py); libmamba (mamba, micromamba) says "Cannot lock '<path>'" then "Waiting for other
// mamba process to finish", or "LockFile acquisition failed" (libmamba/src/core/util.cpp); rattler (pixi) blocks on
// its package cache ("Blocking waiting for global file lock on package cache", rattler_cache cache_lock.rs).
export const condaLockBusy = {
  id: 'conda-lock-busy',
  category: 'lock_busy',
  tools: CONDA_FAMILY,
  summary: 'Another conda process holds its lock (or left a stale lock file)',
  match: failure => {
    const evidence = linesMatching(failure, /conda is already doing something|The lock(?:file)? \S[^\n]{0,400} was found\. Wait for it to finish|File lock could on \S[^\n]{0,400} not be obtained|Waiting for other mamba process to finish|Blocking waiting for global file lock|\.conda_lock\b[^\n]{0,80}(?:could not be acquired|exists)|LockError: |Cannot lock '[^'\n]{1,400}'|LockFile acquisition failed/, 2)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
