import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// A lock the file system cannot take is not a lock another process holds. NFS, Lustre and some container mounts
// refuse flock/lockf: Linux answers ENOLCK ("No locks available"), ENOSYS, EOPNOTSUPP or the kernel's own ENOTSUPP,
// which glibc has no text for ("Unknown error 524"). uv reports it as "failed to lock `<path>`: <os error>" under
// "Could not acquire lock" (crates/uv-fs/src/locked_file.rs, with fs-err's ErrorKind::Lock); conda and Python's
// filelock as `OSError: [Errno 37] No locks available`. Waiting does not help, nor does another source: the cache or
// the package directory has to move to a local disk, or the tool run without locks.
// The errno and the lock words may be lines apart: uv chains them, and pastes wrap them.
const UNSUPPORTED = /\b(?:ENOLCK|ENOSYS|EOPNOTSUPP|ENOTSUPP)\b|No locks available/
const LOCKING = /failed to lock|Could not acquire lock|\blockf\(/

export const anyLockUnsupported = {
  id: 'any-lock-unsupported',
  category: 'other',
  tools: 'any',
  summary: 'The file system does not support file locks (a network or cluster file system)',
  match: failure => {
    const errno = linesMatching(failure, UNSUPPORTED, 1)
    const locking = linesMatching(failure, LOCKING, 1)
    return errno.length && locking.length ? { evidence: [...new Set([...locking, ...errno])] } : null
  },
  remedy: { kind: 'give-up', hint: 'The directory the tool locks is on a file system without file locks (NFS, Lustre). Point the cache at a local disk (uv: UV_CACHE_DIR; pip: --cache-dir; conda: CONDA_PKGS_DIRS), or run without locks (conda: --no-lock, or `conda config --set no_lock true`).' },
} satisfies Rule
