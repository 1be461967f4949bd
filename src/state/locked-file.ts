import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'

// Many resilient processes may run at once (a CI matrix, make -j): every read-modify-write of a shared file holds
// proper-lockfile's lock (an atomic mkdir, stale after 10 s, so a killed process cannot wedge the others), and every
// write goes through write-file-atomic (temp file + fsync + rename), so a reader never sees half a file.
const LOCK_RETRIES = { retries: 200, factor: 1.3, minTimeout: 5, maxTimeout: 100, randomize: true }

/** Runs `fn` while holding the lock of `file`; the file itself need not exist. */
export async function withFileLock<T>(file: string, fn: () => Promise<T>, warn: (message: string) => void = () => {}): Promise<T> {
  const { lock } = await import('proper-lockfile')
  await mkdir(dirname(file), { recursive: true })
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

/** Replaces `file` in one step (write a temp file, fsync, rename). */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  const { default: writeFileAtomic } = await import('write-file-atomic')
  await mkdir(dirname(file), { recursive: true })
  await writeFileAtomic(file, text, { encoding: 'utf8' })
}
