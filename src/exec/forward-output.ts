import { read, write } from 'node:fs'
import { Socket } from 'node:net'
import { ReadStream } from 'node:tty'

/** How forwarding ended: the tool closed its end (`end`), or resilient's own output was closed by its reader. */
export type ForwardEnd = 'end' | 'broken-pipe'

/**
 * Writes all of `chunk` to `fd`. The write is a blocking one, made on libuv's thread pool, so that a slow reader
 * holds the tool back (back-pressure) without stopping resilient's event loop (signals are still handled), and
 * without making resilient's stdout non-blocking, a flag that would be shared with every other process writing to it.
 */
function writeAll(fd: number, chunk: Buffer): Promise<NodeJS.ErrnoException | undefined> {
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

/** Reads a pseudo-terminal's master until EIO (every writer gone, every byte delivered), passing each chunk on. */
async function drainToEio(fd: number, targetFd: number, onChunk: (chunk: Buffer) => void): Promise<ForwardEnd> {
  const buffer = Buffer.alloc(64 * 1024)
  for (let idle = 0; idle < 500;) {
    const result = await new Promise<{ bytes: number; code?: string }>(resolve => read(fd, buffer, 0, buffer.length, null, (error, bytes) => resolve({ bytes, code: error?.code })))
    if (result.code === 'EAGAIN') {
      idle++
      await new Promise(resolve => setTimeout(resolve, 2))
      continue
    }
    if (result.code || result.bytes === 0) return 'end'
    const chunk = Buffer.from(buffer.subarray(0, result.bytes))
    onChunk(chunk)
    if ((await writeAll(targetFd, chunk))?.code === 'EPIPE') return 'broken-pipe'
  }
  return 'end'
}

/** What is read while a write is under way is gathered, up to this, and written in one go. */
const GATHER_BYTES = 1024 * 1024

/**
 * Copies what the tool writes on `source` (resilient's end of a pipe, or a pseudo-terminal's master) to `targetFd` as
 * it arrives: no line buffering, so a prompt without a newline shows at once. Each chunk is also given to `onChunk`
 * (the diagnosis tail). What arrives while a write is under way is gathered and written next, in one write (a tool
 * writing line by line costs one write per batch, not per line); reading stops while a megabyte waits, so a slow
 * reader holds the tool back. When the reader of `targetFd` goes away (EPIPE), resilient stops reading and closes its
 * end, so the tool's next write fails as it would have without resilient (EPIPE, or death by SIGPIPE).
 */
export function forwardOutput(source: number, targetFd: number, options: { pty?: boolean; onChunk: (chunk: Buffer) => void }): Promise<ForwardEnd> {
  return new Promise(resolve => {
    // A master end reports the closed terminal as EIO (read(2), "pty"): that is its end of file. libuv may report an
    // end earlier: a short read followed by POLLHUP counts as EOF for it (src/unix/stream.c), while the kernel is still
    // moving the tool's last bytes into the master's buffer. So the stream is kept open past that end (allowHalfOpen)
    // and read to EIO directly, which the kernel gives only once those bytes are delivered.
    const stream = options.pty ? new ReadStream(source, { allowHalfOpen: true } as never) : new Socket({ fd: source, readable: true, writable: false })
    let pending: Buffer[] = []
    let pendingBytes = 0
    let writing = false
    let sourceEnded = false
    let done = false
    const finish = (how: ForwardEnd) => {
      if (done) return
      done = true
      stream.destroy()
      resolve(how)
    }
    const afterSource = () => {
      if (!options.pty) return finish('end')
      void drainToEio(source, targetFd, options.onChunk).then(finish)
    }
    const resume = () => !done && pendingBytes < GATHER_BYTES && stream.resume()
    const flush = () => {
      writing = true
      const data = pending.length === 1 ? pending[0]! : Buffer.concat(pending)
      pending = []
      pendingBytes = 0
      void writeAll(targetFd, data).then(error => {
        writing = false
        if (error?.code === 'EPIPE') return finish('broken-pipe')
        if (pending.length) return flush()
        if (sourceEnded) return afterSource()
        resume()
      })
    }
    stream.on('data', (chunk: Buffer) => {
      options.onChunk(chunk)
      pending.push(chunk)
      pendingBytes += chunk.length
      if (pendingBytes >= GATHER_BYTES) stream.pause()
      if (!writing) flush()
    })
    stream.on('end', () => {
      sourceEnded = true
      if (!writing) afterSource()
    })
    stream.on('error', () => finish('end'))
  })
}
