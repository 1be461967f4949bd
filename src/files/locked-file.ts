import { chmodSync, mkdirSync, statSync } from 'node:fs'
import { dirname } from 'node:path'

// The one place that locks and writes files atomically: state, logs, records, config and users' lockfiles.
// Many resilient processes may run at once (a CI matrix, make -j): every read-modify-write of a shared file holds
// proper-lockfile's lock (an atomic mkdir, stale after 10 s, so a killed process cannot wedge the others), and every
// write goes through write-file-atomic (temp file + fsync + rename; the run logs without the fsync), so a reader never
// sees half a file.
const LOCK_RETRIES = { retries: 200, factor: 1.3, minTimeout: 5, maxTimeout: 100, randomize: true }

/**
 * Creates `dir` (and its parents) readable by its owner only, and narrows it to 0700 when it already exists with
 * wider bits and is ours: what resilient keeps (state, logs, records, config) is nobody else's to read, whatever
 * the umask.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const stat = statSync(dir)
  if ((stat.mode & 0o077) !== 0 && stat.uid === process.getuid?.()) chmodSync(dir, 0o700)
}

/**
 * Loads the lock and the atomic writer ahead of need. Called once the tool runs, while resilient waits: what it
 * writes afterwards (mirror health, the run log) then costs the run nothing to load.
 */
export function preloadFileWriters(): void {
  void import('proper-lockfile').catch(() => {})
  void import('write-file-atomic').catch(() => {})
}

/** Runs `fn` while holding the lock of `file`; the file itself need not exist. */
export async function withFileLock<T>(file: string, fn: () => Promise<T>, warn: (message: string) => void = () => {}): Promise<T> {
  // The CommonJS module as a whole: bundled (rollup.config.mjs) it is used through its default export.
  const { default: { lock } } = await import('proper-lockfile')
  ensurePrivateDir(dirname(file))
  let compromised: Error | undefined
  const release = await lock(file, { realpath: false, retries: LOCK_RETRIES, stale: 10_000, onCompromised: error => { compromised = error } })
  try {
    return await fn()
  } finally {
    await release().catch(() => {})
    // Another process took over a lock it judged stale: our write may have raced with theirs. Rare; not fatal.
    if (compromised) warn(`the lock on ${file} was lost (${compromised.message}); an update may have been overwritten`)
  }
}

/**
 * Replaces `file` in one step (write a temp file, fsync, rename), mode 0600 in a 0700 directory. `durable: false`
 * leaves out the fsync, a wait on the disk, for a file whose loss in a crash costs nothing: a reader still never sees
 * half of it.
 */
export async function writeFileAtomically(file: string, text: string, { durable = true } = {}): Promise<void> {
  const { default: writeFileAtomic } = await import('write-file-atomic')
  ensurePrivateDir(dirname(file))
  await writeFileAtomic(file, text, { encoding: 'utf8', mode: 0o600, fsync: durable })
}

/**
 * Replaces a file of the person's own (a lockfile) in one step, keeping its mode and owner (write-file-atomic's
 * default): a reader, or a Ctrl-C, never leaves half of it.
 */
export async function replaceOwnFile(file: string, data: string | Buffer): Promise<void> {
  const { default: writeFileAtomic } = await import('write-file-atomic')
  await writeFileAtomic(file, data)
}
