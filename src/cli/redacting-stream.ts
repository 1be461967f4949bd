import { Writable } from 'node:stream'
import { redact } from '../redact.js'

const NEWLINE = 0x0a
const CARRIAGE_RETURN = 0x0d

/**
 * A stream that passes the child's messages to `target` with secrets masked. It redacts whole lines (a secret split
 * across two chunks is still found), writes untouched bytes when there is nothing to mask (invalid UTF-8 survives),
 * and lets a prompt without a newline (`Password: `) through after `idleMs`, so nothing waits on a line end.
 * Only for human-facing streams: the child's stdout stays byte for byte (`resilient pip freeze > req.txt`).
 */
export class RedactingStream extends Writable {
  private pending: Buffer = Buffer.alloc(0)
  private timer: NodeJS.Timeout | undefined

  constructor(private readonly target: NodeJS.WritableStream, private readonly idleMs = 50, private readonly maxPending = 64 * 1024) {
    super({ decodeStrings: true })
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk
    let end = Math.max(data.lastIndexOf(NEWLINE), data.lastIndexOf(CARRIAGE_RETURN)) + 1
    if (end === 0 && data.length >= this.maxPending) end = data.length
    this.pending = data.subarray(end)
    if (end > 0) this.emitRedacted(data.subarray(0, end))
    this.scheduleFlush()
    callback()
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.flush()
    callback()
  }

  /** Writes whatever partial line is held back (call once the child has exited). */
  flush(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    const rest = this.pending
    this.pending = Buffer.alloc(0)
    if (rest.length) this.emitRedacted(rest)
  }

  private scheduleFlush(): void {
    clearTimeout(this.timer)
    this.timer = this.pending.length ? setTimeout(() => this.flush(), this.idleMs) : undefined
    this.timer?.unref()
  }

  private emitRedacted(bytes: Buffer): void {
    const text = bytes.toString('utf8')
    const masked = redact(text)
    this.target.write(masked === text ? bytes : Buffer.from(masked, 'utf8'))
  }
}

/**
 * The streams runChild writes the child's output to. With pipes, only stderr is redacted (stdout is data); in a
 * pseudo-terminal both arrive as one stream on a person's screen, never in a file, so it is redacted too.
 */
export function redactedChildStreams(pty: boolean): { options: { stdout?: NodeJS.WritableStream; stderr?: NodeJS.WritableStream }; flush(): void } {
  const stream = new RedactingStream(pty ? process.stdout : process.stderr)
  return { options: pty ? { stdout: stream } : { stderr: stream }, flush: () => stream.flush() }
}
