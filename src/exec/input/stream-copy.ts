import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { Socket } from 'node:net'
import { join } from 'node:path'
import { createPrivateDir } from '../../files/private-files.js'
import { formatBytes } from '../progress/progress-monitor.js'
import { openRealPipes } from '../output/real-pipe.js'

type Source = NodeJS.ReadableStream & { destroy(): void }

/**
 * One input stream the tool reads (resilient's stdin, or a `/dev/fd/N` from `<(...)`), with a copy of what was read
 * kept, up to `limitBytes`, so that a second run is given the same bytes.
 *
 * Read directly through its descriptor, the stream passes through a pipe of resilient's, read only as fast as the
 * tool reads: a tool that never reads leaves it unread (but for what one pipe holds), so `yes | resilient ...` does
 * not grow. Named on the command line (`-r /dev/stdin`), it is read to its end first and given as a private file: the
 * tool opens that path again, and reopening a pipe resilient made (a FIFO: Node has no pipe(2)) would wait for a
 * writer that is gone once the input has ended, where a shell's pipe would not (fifo_open in Linux fs/pipe.c).
 */
export class StreamCopy {
  private copy: Buffer[] = []
  private readAhead: Buffer[] = []
  private copied = 0
  private overflowed = false
  private consumed = 0
  private ended = false
  private source: Source | undefined
  private spooled: string | undefined

  constructor(readonly fd: number, private readonly limitBytes: number, private readonly named: boolean) {}

  /** Why the next run cannot be given the same input, if it cannot. */
  refusal(): string | undefined {
    if (!this.overflowed) return undefined
    return `the tool read more than ${formatBytes(this.limitBytes)} of its ${this.fd === 0 ? 'standard input' : `input /dev/fd/${this.fd}`}, more than resilient keeps to give it again (setting replayInputMegabytes)`
  }

  /** What was read so far, as text (within the limit only: past it, refusal() says so first). */
  text(): string {
    return Buffer.concat(this.copy).toString('utf8')
  }

  /** The tool reads a pipe of resilient's (not the private file), and the stream behind it has ended. */
  get pipeEnded(): boolean {
    return this.ended && !this.spooled
  }

  get bytesRead(): number {
    return this.consumed
  }

  /** Gives the tool its end for one run: the private file, or a fresh pipe fed with the copy, then the live stream. */
  async attach(): Promise<{ childFd: number; detach: () => void }> {
    if (this.named && !this.ended && !this.overflowed) await this.spool()
    if (this.spooled) return { childFd: openSync(this.spooled, 'r'), detach: () => {} }
    const [pipe] = openRealPipes(['to-child'])
    const sink = new Socket({ fd: pipe!.ours, readable: false, writable: true })
    sink.on('error', () => {}) // EPIPE: the tool closed its input; what was read stays in the copy
    let detached = false
    for (const chunk of this.overflowed ? this.readAhead : this.copy) sink.write(chunk)
    this.readAhead = []
    const resume = () => !detached && this.source?.resume()
    const onData = (chunk: Buffer) => {
      this.keep(chunk)
      if (!sink.write(chunk)) {
        this.source?.pause()
        sink.once('drain', resume)
      }
    }
    const onEnd = () => {
      this.ended = true
      sink.end()
    }
    if (this.ended) sink.end()
    else {
      this.source ??= openSource(this.fd)
      this.source.on('data', onData).on('end', onEnd).on('error', onEnd)
      if (sink.writableNeedDrain) sink.once('drain', resume)
      else this.source.resume()
    }
    return {
      childFd: pipe!.child,
      detach: () => {
        detached = true
        this.source?.pause()
        this.source?.off('data', onData).off('end', onEnd).off('error', onEnd)
        sink.destroy()
      },
    }
  }

  /** Stops reading for good and removes the private file (the run is over). */
  close(): void {
    this.source?.destroy()
    this.removeSpool()
  }

  private removeSpool(): void {
    if (this.spooled) rmSync(join(this.spooled, '..'), { recursive: true, force: true })
    this.spooled = undefined
  }

  private keep(chunk: Buffer): void {
    this.consumed += chunk.length
    if (this.overflowed) return
    this.copied += chunk.length
    if (this.copied <= this.limitBytes) return void this.copy.push(chunk)
    this.overflowed = true
    this.copy = []
  }

  /**
   * Reads the stream to its end into a 0600 file in a private directory (streamed to disk: only the first
   * `limitBytes` stay in memory). An endless stream (`yes | ...`) is cut at SPOOL_CAP and passed on live instead.
   */
  private async spool(): Promise<void> {
    const source = (this.source ??= openSource(this.fd))
    // A run directory (src/files/private-files.ts): one a SIGKILL leaves behind is swept by the next run.
    const file = join(createPrivateDir().path, 'input')
    const out = openSync(file, 'w', 0o600)
    let written = 0
    await new Promise<void>(resolve => {
      const stop = () => {
        source.pause()
        source.off('data', onData).off('end', onEnd).off('error', onEnd)
        resolve()
      }
      const onData = (chunk: Buffer) => {
        this.keep(chunk)
        writeSync(out, chunk)
        written += chunk.length
        if (written > Math.max(this.limitBytes, SPOOL_CAP)) stop()
      }
      const onEnd = () => {
        this.ended = true
        stop()
      }
      source.on('data', onData).on('end', onEnd).on('error', onEnd)
      source.resume()
    })
    closeSync(out)
    this.spooled = file
    if (this.ended) return
    this.readAhead = [readFileSync(file)]
    this.removeSpool()
  }
}

/** How much of a stream named on the command line is spooled before it is passed on live instead. */
const SPOOL_CAP = 64 * 1024 * 1024

/**
 * A readable stream over `fd`. For fd 0 it is Node's own process.stdin: a second handle on the same descriptor would
 * never be told it is readable (one epoll registration per descriptor), and anything that asks process.stdin.isTTY
 * creates the first. pauseOnCreate (node lib/net.js): a socket made from a descriptor starts reading at once otherwise.
 */
function openSource(fd: number): Source {
  if (fd === 0) return process.stdin
  return new Socket({ fd, readable: true, writable: false, pauseOnCreate: true } as ConstructorParameters<typeof Socket>[0])
}
