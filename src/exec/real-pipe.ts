import { spawnSync } from 'node:child_process'
import { closeSync, constants, openSync } from 'node:fs'
import { join } from 'node:path'
import { createPrivateDir } from '../files/private-files.js'

/**
 * One pipe between resilient and the tool. `child` is the end the tool gets (blocking, as a shell's pipe is);
 * `ours` is resilient's end (non-blocking, read or written through libuv).
 */
export interface RealPipe {
  child: number
  ours: number
}

/**
 * Opens pipes the tool can treat as pipes. Node's `stdio: 'pipe'` gives the child a Unix socket: `/dev/stdout`,
 * `/dev/stderr` and `/proc/self/fd/1` cannot be opened on a socket (ENXIO), so `pip --log /dev/stderr` fails. Node has
 * no pipe(2), so each pipe is a FIFO made with mkfifo(1) in a private directory, opened from both ends and unlinked at
 * once: what is left is an ordinary anonymous pipe. A FIFO's read end opens without waiting only when non-blocking,
 * and a write end only once a reader exists: the order of the opens below gives each side the mode it needs.
 */
export function openRealPipes(directions: readonly ('to-child' | 'from-child')[]): RealPipe[] {
  if (!directions.length) return []
  // A run directory (src/files/private-files.ts): one a SIGKILL leaves behind is swept by the next run.
  const { path: dir, remove } = createPrivateDir()
  try {
    const names = directions.map((_, index) => join(dir, String(index)))
    const made = spawnSync('mkfifo', ['-m', '600', ...names], { stdio: 'ignore' })
    if (made.status !== 0) throw new Error(`mkfifo failed${made.error ? `: ${made.error.message}` : ''}`)
    return directions.map((direction, index) => {
      const name = names[index]!
      const reader = openSync(name, constants.O_RDONLY | constants.O_NONBLOCK)
      const writer = openSync(name, constants.O_WRONLY)
      if (direction === 'from-child') return { child: writer, ours: reader }
      // The tool reads: it needs a blocking read end, which opens at once now that a writer exists.
      const blockingReader = openSync(name, constants.O_RDONLY)
      closeSync(reader)
      return { child: blockingReader, ours: writer }
    })
  } finally {
    remove()
  }
}

/** Closes descriptors, ignoring any already closed. */
export function closeAll(fds: Iterable<number>): void {
  for (const fd of fds) {
    try {
      closeSync(fd)
    } catch {
      // already closed
    }
  }
}
