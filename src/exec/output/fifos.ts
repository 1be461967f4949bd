import { spawnSync } from 'node:child_process'
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
}

let spare: Spare | undefined

function pathsIn(dir: PrivateDir, count: number): string[] {
  return Array.from({ length: count }, (_, index) => join(dir.path, String(index)))
}

/**
 * Starts making `count` FIFOs in the background, for the next `takeFifos` to use. Node has no mkfifo(2): the watchdog
 * of the run's first attempt, started now, makes them with mkfifo(1) before it watches (../watchdog.ts), so that the
 * start of the run waits for neither process; made while the config and the state are read, they are ready by the
 * time the tool starts. Resolves with their paths once made.
 */
export function prepareFifos(count: number): Promise<string[] | undefined> {
  if (spare) return Promise.resolve(undefined)
  // A run directory (src/files/private-files.ts): one a SIGKILL leaves behind is swept by the next run.
  const dir = createPrivateDir()
  const made: Spare = { dir, paths: pathsIn(dir, count), ready: false }
  spare = made
  process.once('exit', () => dir.remove())
  return new Promise(resolve => prepareWatchdog(made.paths, ok => {
    made.ready = ok
    resolve(ok ? made.paths : undefined)
  }))
}

/** `count` FIFOs: the ones prepared in the background when they are ready, otherwise made now. */
export function takeFifos(count: number): Fifos {
  const prepared = spare
  if (prepared?.ready && prepared.paths.length >= count) {
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
