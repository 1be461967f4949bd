import { Socket } from 'node:net'
import { ReadStream } from 'node:tty'
import { drainToEio } from './drain-to-eio.js'
import { handOffTo, readWhatIsThere } from './hand-off.js'
import { RelayThread } from './pipe-thread.js'
import type { RelayedStream } from './output-order.js'
import { writeAll } from './write-all.js'

/**
 * How forwarding ended: every writer closed the pipe (`end`), resilient's own output was closed by its reader
 * (`broken-pipe`), or what is left was handed to a process that outlives resilient (`handed-off`, hand-off.ts).
 */
export type ForwardEnd = 'end' | 'broken-pipe' | 'handed-off'

/** What is read while a write is under way is gathered, up to this, and written in one go. */
const GATHER_BYTES = 1024 * 1024
/**
 * A stream read on the event loop at this rate or more goes to a relay thread: below it, the event loop's cost per
 * chunk is small, and a slow verbose log need not start one.
 */
const HAND_OVER_BYTES = 1024 * 1024
const HAND_OVER_MS = 1000

export interface ForwardOptions {
  /** `source` is a pseudo-terminal's master. */
  pty?: boolean
  /** Told of each chunk the event loop reads, just before it is written on. */
  onChunk: (chunk: Buffer) => void
  /**
   * A relay thread may copy the stream once it is large (nothing needs to see each chunk before it is written, and
   * the target is no terminal): what it relayed is watched through `watch`, whose returned function gives it back.
   */
  relay?: { tailBytes: number; watch: (stream: RelayedStream) => () => void }
  /**
   * Resolved once the tool has exited while something it left running still holds the pipe: what the pipe holds now
   * is read and written on (the diagnosis sees the tool's last lines), then the rest goes to a process that outlives
   * resilient (hand-off.ts), whose PATH `env` gives.
   */
  handOff?: { when: Promise<void>; env: NodeJS.ProcessEnv }
}

/** How many rounds of what the pipe holds are read before the hand-off goes ahead (a helper that never stops writing). */
const HAND_OFF_ROUNDS = 8

/**
 * Copies what the tool writes on `source` (resilient's end of a pipe, or a pseudo-terminal's master) to `targetFd` as
 * it arrives: no line buffering, so a prompt without a newline shows at once. Each chunk is also given to `onChunk`
 * (the diagnosis tail). What arrives while a write is under way is gathered and written next, in one write (a tool
 * writing line by line costs one write per batch, not per line); reading stops while a megabyte waits, so a slow
 * reader holds the tool back. When the reader of `targetFd` goes away (EPIPE), resilient stops reading and closes its
 * end, so the tool's next write fails as it would have without resilient (EPIPE, or death by SIGPIPE).
 *
 * Each chunk costs the event loop ~50 µs (a read callback, a write on the thread pool): nothing for the few kilobytes
 * of a healthy install, twice the tool's own time for a gigabyte. So at HAND_OVER_BYTES a second, where `relay`
 * allows it, the stream is handed over to a thread (src/exec/output/pipe-thread.ts): the event loop stops reading at once
 * (`onread` sockets stop libuv's reads in pause(), where a plain socket would read on into its buffer), lets its
 * writes finish so the order of the bytes is kept, and the thread reads the same descriptor. When the tool goes
 * quiet, it hands back and parks; a later burst goes to it again. It costs ~20 ms to start: only a fast output
 * starts one.
 */
export function forwardOutput(source: number, targetFd: number, options: ForwardOptions): Promise<ForwardEnd> {
  return new Promise(resolve => {
    const buffer = Buffer.allocUnsafe(64 * 1024)
    let pending: Buffer[] = []
    let pendingBytes = 0
    let writing = false
    let sourceEnded = false
    let done = false
    let windowStart = performance.now()
    let windowBytes = 0
    let mode: 'event-loop' | 'handing-over' | 'thread' = 'event-loop'
    let starting: Promise<void> | undefined
    // undefined: not started; null: it could not start.
    let thread: RelayThread | null | undefined
    // The tool has exited and its helper holds the pipe: reading what it holds now, then handing the rest off.
    let handingOff = false
    let handOffRounds = 0
    const onRead = (bytes: number): boolean => {
      const chunk = Buffer.from(buffer.subarray(0, bytes))
      options.onChunk(chunk)
      pending.push(chunk)
      pendingBytes += bytes
      if (!writing) flush()
      if (options.relay) {
        const now = performance.now()
        if (now - windowStart > HAND_OVER_MS) {
          windowStart = now
          windowBytes = 0
        }
        windowBytes += bytes
        if (windowBytes >= HAND_OVER_BYTES) askThread()
      }
      // false stops libuv's reads now: a megabyte waits, or the stream is being handed over.
      return pendingBytes < GATHER_BYTES && mode === 'event-loop' && !handingOff
    }
    const onread = { buffer, callback: onRead }
    // A master end reports the closed terminal as EIO (read(2), "pty"): that is its end of file. libuv may report an
    // end earlier: a short read followed by POLLHUP counts as EOF for it (src/unix/stream.c), while the kernel is still
    // moving the tool's last bytes into the master's buffer. So the stream is kept open past that end (allowHalfOpen)
    // and read to EIO directly, which the kernel gives only once those bytes are delivered.
    const stream = options.pty ? new ReadStream(source, { allowHalfOpen: true, onread } as never) : new Socket({ fd: source, readable: true, writable: false, onread } as ConstructorParameters<typeof Socket>[0])
    const finish = (how: ForwardEnd) => {
      if (done) return
      done = true
      // The thread must be gone before the descriptor it reads is closed (and its number given to another file).
      void Promise.resolve(starting).then(() => thread?.stop()).then(() => {
        stream.destroy()
        resolve(how)
      })
    }
    let drained = false
    const afterSource = () => {
      if (drained) return
      drained = true
      if (!options.pty) return finish('end')
      void drainToEio(source, targetFd, options.onChunk).then(finish)
    }
    const resume = () => {
      if (handingOff) return handOffNow()
      if (!done && mode === 'event-loop' && pendingBytes < GATHER_BYTES) stream.resume()
    }
    /** Once nothing is being written and no thread relays: the pipe's present bytes first, then the hand-off. */
    const handOffNow = () => {
      if (done || writing || mode !== 'event-loop' || sourceEnded) return
      if (handOffRounds++ < HAND_OFF_ROUNDS) {
        const now = readWhatIsThere(source, GATHER_BYTES)
        for (const chunk of now.chunks) {
          options.onChunk(chunk)
          pending.push(chunk)
          pendingBytes += chunk.length
        }
        sourceEnded = now.ended
      }
      if (pending.length) return flush()
      if (sourceEnded) return afterSource()
      finish(handOffTo(source, targetFd, options.handOff!.env) ? 'handed-off' : 'end')
    }
    const askThread = () => {
      if (thread === null || thread?.broken || mode !== 'event-loop') return
      mode = 'handing-over'
      stream.pause()
      // Started when first needed, and parked between bursts. While it starts (tens of ms), the tool waits: the event
      // loop reading on at full speed meanwhile would leave tens of megabytes of garbage behind it.
      if (thread) return void takeOver()
      starting ??= RelayThread.start(source, targetFd, options.relay!.tailBytes).then(started => {
        thread = started ?? null
        void takeOver()
      })
    }
    /** Once the thread is ready and the event loop's last write is done (the order of the bytes), it takes over. */
    const takeOver = async () => {
      if (done || mode !== 'handing-over' || writing || thread === undefined) return
      if (!thread || thread.broken) {
        mode = 'event-loop'
        return void resume()
      }
      mode = 'thread'
      const giveBack = options.relay!.watch(thread)
      const how = await thread.relay()
      giveBack()
      if (how !== 'quiet') return finish(how)
      mode = 'event-loop'
      windowBytes = 0
      resume()
    }
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
        if (mode === 'handing-over') return void takeOver()
        resume()
      })
    }
    stream.on('end', () => {
      sourceEnded = true
      if (!writing) afterSource()
    })
    stream.on('error', () => finish('end'))
    // A terminal's stream waits to be started; a socket made from a descriptor reads at once.
    if (options.pty) stream.resume()
    void options.handOff?.when.then(() => {
      if (done || sourceEnded) return
      handingOff = true
      // An `onread` stream stops libuv's reads at once; what the pipe holds is read by handOffNow.
      stream.pause()
      handOffNow()
    })
  })
}
