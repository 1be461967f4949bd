import { writeSync } from 'node:fs'
import { Writable } from 'node:stream'
import { isPipeOrSocket } from '../files/stream-descriptor.js'

/**
 * resilient's own stdout and stderr when they are pipes or sockets. Node's would open them with libuv, which sets
 * O_NONBLOCK on the open file description, and that flag is shared with every process writing to the same pipe: a
 * sibling writing to it at the same time (`make -j`, `cmd1 & cmd2` in one pipeline) then sees EAGAIN when the pipe is
 * full, and Python, for one, drops what it could not write without a word. These write with blocking write(2), as
 * Node already does for regular files; terminals keep Node's own streams (libuv reopens a terminal, so its flag is
 * not shared).
 */
export function useBlockingStdio(): void {
  for (const [name, fd] of [['stdout', 1], ['stderr', 2]] as const) {
    if (!isPipeOrSocket(fd)) continue
    let stream: BlockingWriteStream | undefined
    // Created when first used, as Node's own are: a run that prints nothing builds nothing.
    Object.defineProperty(process, name, { configurable: true, enumerable: true, get: () => (stream ??= new BlockingWriteStream(fd)) })
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4))

/** Writes all of `data`; a description someone else made non-blocking is waited on (EAGAIN), never given up on. */
function writeAllSync(fd: number, data: Uint8Array): void {
  for (let offset = 0; offset < data.length;) {
    try {
      offset += writeSync(fd, data, offset, data.length - offset)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error
      Atomics.wait(pause, 0, 0, 2)
    }
  }
}

/** A Writable over a descriptor, written synchronously: a broken pipe (EPIPE) is an 'error' event, as with Node's. */
class BlockingWriteStream extends Writable {
  readonly isTTY = false

  constructor(readonly fd: number) {
    super({ decodeStrings: true })
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    try {
      writeAllSync(this.fd, chunk)
      callback()
    } catch (error) {
      callback(error as Error)
    }
  }
}
