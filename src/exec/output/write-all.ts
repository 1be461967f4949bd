import { write } from 'node:fs'

/**
 * Writes all of `chunk` to `fd`. The write is a blocking one, made on libuv's thread pool, so that a slow reader
 * holds the tool back (back-pressure) without stopping resilient's event loop (signals are still handled), and
 * without making resilient's stdout non-blocking, a flag that would be shared with every other process writing to it.
 */
export function writeAll(fd: number, chunk: Buffer): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise(resolve => {
    const next = (offset: number) => write(fd, chunk, offset, chunk.length - offset, null, (error, written) => {
      // A descriptor someone else made non-blocking: wait for room rather than lose bytes.
      if (error?.code === 'EAGAIN') setTimeout(() => next(offset), 2)
      else if (error) resolve(error)
      else if (offset + written < chunk.length) next(offset + written)
      else resolve(undefined)
    })
    next(0)
  })
}
