import { spawnSync } from 'node:child_process'
import { lstatSync } from 'node:fs'
import { join } from 'node:path'
import { createPrivateDir, type PrivateDir } from '../../files/private-files.js'
import { prepareWatchdog } from '../watchdog.js'

/** FIFOs made in a private directory, to be opened and unlinked (real-pipe.ts). */
export interface Fifos {
  paths: string[]
  /** Removes the directory and what is left in it. */
  remove(): void
}

interface Spare {
  dir: PrivateDir
  paths: string[]
  ready: boolean
  /** Settles once the watchdog has said whether it made them, or could not start. */
  made: Promise<unknown>
}

let spare: Spare | undefined

function pathsIn(dir: PrivateDir, count: number): string[] {
  return Array.from({ length: count }, (_, index) => join(dir.path, String(index)))
}

/**
 * Starts making `count` FIFOs in the background, for the next `takeFifos` (or `takeFifosWhenMade`) to use. Node has no mkfifo(2): the watchdog
 * of the run's first attempt, started now, makes them with mkfifo(1) before it watches (../watchdog.ts), so that the
 * start of the run waits for neither process; made while the config and the state are read, they are ready by the
 * time the tool starts. Resolves with their paths once made.
 */
export function prepareFifos(count: number): Promise<string[] | undefined> {
  if (spare) return Promise.resolve(undefined)
  // A run directory (src/files/private-files.ts): one a SIGKILL leaves behind is swept by the next run.
  const dir = createPrivateDir()
  const prepared: Spare = { dir, paths: pathsIn(dir, count), ready: false, made: Promise.resolve() }
  spare = prepared
  process.once('exit', () => dir.remove())
  const made = new Promise<string[] | undefined>(resolve => prepareWatchdog(prepared.paths, ok => {
    prepared.ready = ok
    resolve(ok ? prepared.paths : undefined)
  }))
  prepared.made = made
  return made
}

/** Made already, 0600: what mkfifo -m 600 leaves, the moment it has made them (its word may not have been read yet). */
function madeAlready(paths: readonly string[]): boolean {
  return paths.every(path => {
    try {
      const stat = lstatSync(path)
      return stat.isFIFO() && (stat.mode & 0o777) === 0o600
    } catch {
      return false
    }
  })
}

/** The longest wait for the watchdog's mkfifo: past it, something is wrong there, and takeFifos makes its own. */
const MADE_WAIT_MS = 5_000

/**
 * takeFifos once the FIFOs under way are made: the watchdog, started a while ago, is making them already, and a
 * second mkfifo beside it would hold resilient's main thread for a process start (the fork of a large process, tens
 * of milliseconds on a loaded machine) and cost one process more, for FIFOs that are about to exist.
 */
export async function takeFifosWhenMade(count: number): Promise<Fifos> {
  const pending = spare
  if (pending && pending.paths.length >= count && !pending.ready && !madeAlready(pending.paths)) {
    // The timer also keeps the event loop alive: the watchdog's stdout, which brings its word, is unref'd.
    let timer: NodeJS.Timeout | undefined
    await Promise.race([pending.made, new Promise(resolve => { timer = setTimeout(resolve, MADE_WAIT_MS) })])
    clearTimeout(timer)
  }
  return takeFifos(count)
}

/**
 * `count` FIFOs: the ones prepared in the background when they are made (said so, or seen: on a loaded machine the
 * watchdog's word comes after its mkfifo is done), otherwise made now.
 */
export function takeFifos(count: number): Fifos {
  const prepared = spare
  if (prepared && prepared.paths.length >= count && (prepared.ready || madeAlready(prepared.paths))) {
    spare = undefined
    return { paths: prepared.paths.slice(0, count), remove: prepared.dir.remove }
  }
  const dir = createPrivateDir()
  const paths = pathsIn(dir, count)
  const made = spawnSync('mkfifo', ['-m', '600', ...paths], { stdio: 'ignore' })
  if (made.status !== 0) {
    dir.remove()
    throw new Error(`mkfifo failed${made.error ? `: ${made.error.message}` : ''}`)
  }
  return { paths, remove: dir.remove }
}
