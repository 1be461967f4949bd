import { closeSync, constants, openSync } from 'node:fs'
import { takeFifos, type Fifos } from './fifos.js'

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
 * no pipe(2), so each pipe is a FIFO made with mkfifo(1) in a private directory (fifos.ts), opened from both ends and
 * unlinked at once: what is left is an ordinary anonymous pipe. A FIFO's read end opens without waiting only when
 * non-blocking, and a write end only once a reader exists: the order of the opens below gives each side the mode it
 * needs. `fifos` are the FIFOs to open (made now when not given), one per direction.
 */
export function openRealPipes(directions: readonly ('to-child' | 'from-child')[], given?: Fifos): RealPipe[] {
  if (!directions.length) return []
  const fifos = given ?? takeFifos(directions.length)
  try {
    return directions.map((direction, index) => {
      const name = fifos.paths[index]!
      const reader = openSync(name, constants.O_RDONLY | constants.O_NONBLOCK)
      const writer = openSync(name, constants.O_WRONLY)
      if (direction === 'from-child') return { child: writer, ours: reader }
      // The tool reads: it needs a blocking read end, which opens at once now that a writer exists.
      const blockingReader = openSync(name, constants.O_RDONLY)
      closeSync(reader)
      return { child: blockingReader, ours: writer }
    })
  } finally {
    fifos.remove()
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
