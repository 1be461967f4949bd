import { closeSync, constants, lstatSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EXIT, ResilientError } from '../errors.js'

/**
 * Files resilient writes for one run (pixi's mirror config, a netrc with a typed token): never at a predictable path
 * in a shared directory. Each run gets a fresh `mkdtemp` directory (0700, random name); each file in it is
 * created exclusively without following links (O_EXCL | O_NOFOLLOW), 0600; the directory goes when the run ends, and
 * the next run sweeps one a SIGKILL left behind.
 */
const PREFIX = 'resilient-run-'
const NAME = /^resilient-run-(\d+)-[A-Za-z0-9]{6}$/

export interface PrivateDir {
  path: string
  /** Removes the directory and what is in it; safe to call more than once. */
  remove(): void
}

export function createPrivateDir(root = tmpdir(), pid = process.pid): PrivateDir {
  const path = mkdtempSync(join(root, `${PREFIX}${pid}-`))
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) }
}

/** Whether a process of that id exists (one of another user's included). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Removes run directories of this user whose process is gone (a SIGKILL left them); returns what was removed. */
export function sweepPrivateDirs(root = tmpdir(), running: (pid: number) => boolean = isRunning): string[] {
  let names: string[]
  try {
    names = readdirSync(root)
  } catch {
    return []
  }
  const removed: string[] = []
  for (const name of names) {
    const match = NAME.exec(name)
    if (!match || running(Number(match[1]))) continue
    const path = join(root, name)
    try {
      const stat = lstatSync(path)
      // Only our own real directories: never a link, never another user's.
      if (!stat.isDirectory() || stat.uid !== process.getuid?.()) continue
      rmSync(path, { recursive: true, force: true })
      removed.push(path)
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed
}

/**
 * Creates `path` with `content`, exclusively (an existing file, link, FIFO or directory there is an error, never
 * written through) and without following a link, mode `mode` whatever the umask. A failure is a ResilientError.
 */
export function writeNewFile(path: string, content: string, mode = 0o600): void {
  let descriptor: number | undefined
  try {
    descriptor = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), mode)
    writeSync(descriptor, content)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    throw new ResilientError(`resilient could not create ${path} (${code}).`, EXIT.cantCreate,
      code === 'EEXIST' ? 'Something else is at that path: remove it, or check who put it there.' : 'Check that the directory exists and that you may write there.')
  } finally {
    if (descriptor !== undefined) closeSync(descriptor)
  }
}
