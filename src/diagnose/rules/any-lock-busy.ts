import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// Lock messages shared by many tools: Python's filelock, cargo's package-cache lock, npm's EBUSY on Windows, and
// apt/dpkg when a package install runs beside them (apt-pkg/contrib/fileutl.cc, dpkg's lib/dpkg/lock.c). rattler
// (pixi) checks that a conda-meta record did not change while it read it, and says "File was modified during parsing"
// when another process was installing into the same environment
// (crates/rattler_conda_types/src/minimal_prefix_record.rs).
const BUSY = /\bfilelock\.Timeout\b|lock [^\n]{0,300} could not be acquired|Blocking waiting for file lock|Waiting for (?:the )?(?:file )?lock\b|\bEBUSY\b|resource busy or locked|failed to acquire (?:a |the )?(?:\w+ )?lock|Could not get lock |Unable to lock the administration directory|Unable to acquire the dpkg frontend lock|was locked by another process|File was modified during parsing/i

export const anyLockBusy = {
  id: 'any-lock-busy',
  category: 'lock_busy',
  tools: 'any',
  summary: "Another process holds the tool's lock",
  match: failure => {
    const evidence = linesMatching(failure, BUSY, 2)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
