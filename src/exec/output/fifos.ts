import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { createPrivateDir, type PrivateDir } from '../../files/private-files.js'

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
 * Starts making `count` FIFOs in the background, for the next `takeFifos` to use. Node has no mkfifo(2): each FIFO
 * costs running mkfifo(1), a millisecond or two that the start of a run would otherwise wait for; made while the
 * config and the state are read, they are ready by the time the tool starts. Resolves with their paths once made.
 */
export function prepareFifos(count: number): Promise<string[] | undefined> {
  if (spare) return Promise.resolve(undefined)
  // A run directory (src/files/private-files.ts): one a SIGKILL leaves behind is swept by the next run.
  const dir = createPrivateDir()
  const made: Spare = { dir, paths: pathsIn(dir, count), ready: false }
  spare = made
  process.once('exit', () => dir.remove())
  return new Promise(resolve => {
    try {
      const child = spawn('mkfifo', ['-m', '600', ...made.paths], { stdio: 'ignore' })
      child.on('error', () => resolve(undefined))
      child.on('exit', code => {
        made.ready = code === 0
        resolve(made.ready ? made.paths : undefined)
      })
      child.unref()
    } catch {
      // made when needed instead
      resolve(undefined)
    }
  })
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
