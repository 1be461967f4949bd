import { Worker } from 'node:worker_threads'
import { SLOTS, STATES, type RelayEnd, type RelayMemory } from './relay-memory.js'
import { readerThread } from './relay-reader.js'
import { writerThread } from './relay-writer.js'

/** A piece of what the threads relayed: one read's bytes (or, where older marks were overwritten, several reads'). */
export interface RelayedPiece {
  bytes: Buffer
  ticket: number
}

/** One ticket counter for every relay in this process: the pieces of stdout and stderr merge in the order read. */
const TICKETS = new SharedArrayBuffer(4)
const MARKS = 4096

/**
 * Two threads that copy one output stream of the tool from resilient's end of the pipe to the caller's descriptor
 * (src/exec/relay-reader.ts, src/exec/relay-writer.ts), through a ring they share: none of the ~50 µs of event loop
 * and thread-pool hand-off the event loop's copy costs per chunk, which matters only for large outputs
 * (src/exec/forward-output.ts decides when). The ring keeps the last `tailBytes` relayed, for the diagnosis: `take()`
 * copies them out while the threads run.
 */
export class RelayThreads {
  private readonly control: Int32Array
  private readonly marks: Float64Array
  private readonly ring: Buffer
  private takenReads = 0
  private takenBytes = 0
  private ended: ((how: RelayEnd) => void) | undefined
  /** A thread died (a bug, or no memory for it): the stream is not given to them again. */
  broken = false

  private constructor(private readonly threads: Worker[], private readonly memory: RelayMemory, private readonly tailBytes: number) {
    this.control = new Int32Array(memory.control)
    this.marks = new Float64Array(memory.marks)
    this.ring = Buffer.from(memory.ring)
    threads[1]!.on('message', (how: RelayEnd) => this.ended?.(how))
    for (const thread of threads) {
      thread.on('error', () => {})
      // What the threads read but had not written is lost with them; the event loop reads on from there.
      thread.on('exit', () => {
        this.broken = true
        void this.stop().then(() => this.ended?.('quiet'))
      })
    }
  }

  /** Starts the threads, parked; undefined when they could not start (the event loop then copies everything). */
  static async start(source: number, target: number, tailBytes: number): Promise<RelayThreads | undefined> {
    // A read never overwrites the tail being copied out: the ring holds the tail, a read, and room to spare.
    const ringBytes = 4 * Math.max(tailBytes, 256 * 1024)
    const memory: RelayMemory = {
      source, target, control: new SharedArrayBuffer(4 * 5), counts: new SharedArrayBuffer(16), ring: new SharedArrayBuffer(ringBytes),
      marks: new SharedArrayBuffer(MARKS * 16), tickets: TICKETS, readBytes: 64 * 1024, slots: SLOTS, states: STATES,
    }
    const threads: Worker[] = []
    const started = await Promise.all([readerThread, writerThread].map(program => new Promise<boolean>(resolve => {
      try {
        // stdout and stderr of its own: otherwise Node creates the main thread's process.stdout to carry the thread's
        // output, which makes the caller's descriptor non-blocking for every process sharing it (they then lose bytes).
        const thread = new Worker(`(${program.toString()})(require)`, { eval: true, workerData: memory, stdout: true, stderr: true, stdin: false })
        threads.push(thread)
        // Parked, they must not keep resilient running; they are held (ref) only while they relay.
        thread.unref()
        thread.once('message', () => resolve(true))
        thread.once('error', () => resolve(false))
        thread.once('exit', () => resolve(false))
      } catch {
        resolve(false)
      }
    })))
    if (started.every(Boolean)) return new RelayThreads(threads, memory, tailBytes)
    await Promise.all(threads.map(thread => thread.terminate()))
    return undefined
  }

  /** Gives the stream to the threads until the tool goes quiet, the stream ends or its reader goes away. */
  relay(): Promise<RelayEnd> {
    if (this.broken) return Promise.resolve('quiet')
    for (const thread of this.threads) thread.ref()
    return new Promise(resolve => {
      this.ended = how => {
        this.ended = undefined
        for (const thread of this.threads) thread.unref()
        resolve(how)
      }
      Atomics.store(this.control, SLOTS.state, STATES.relaying)
      Atomics.notify(this.control, SLOTS.state)
    })
  }

  /**
   * What the threads relayed since the last call, up to its last `tailBytes`, as pieces in the order read. Safe while
   * they run: the copy is checked afterwards against how far the reader has gone, and made again if it was overtaken.
   */
  take(): RelayedPiece[] {
    for (;;) {
      const reads = Atomics.load(this.control, SLOTS.reads)
      if (reads === this.takenReads) return []
      const end = this.endOf(reads - 1)
      const from = Math.max(this.takenBytes, end - this.tailBytes)
      // The reader may be writing the mark of read `reads` now, over that of `reads - MARKS`.
      const first = Math.max(this.takenReads, reads - MARKS + 1)
      const pieces: RelayedPiece[] = []
      for (let read = first; read < reads; read++) {
        const start = read === first ? from : Math.max(from, this.endOf(read - 1))
        const stop = this.endOf(read)
        if (stop > start) pieces.push({ bytes: this.copyOut(start, stop), ticket: this.marks[(read % MARKS) * 2 + 1]! })
      }
      const now = Atomics.load(this.control, SLOTS.reads)
      if (now - MARKS >= first || this.endOf(now - 1) + this.memory.readBytes > from + this.ring.length) continue
      this.takenReads = reads
      this.takenBytes = end
      return pieces
    }
  }

  /** Ends the threads; resolves once they are gone (only then may the descriptors they use be closed). */
  async stop(): Promise<void> {
    await Promise.all(this.threads.map(thread => thread.terminate()))
  }

  private endOf(read: number): number {
    return read < 0 ? 0 : this.marks[(read % MARKS) * 2]!
  }

  /** Bytes [start, stop) of the stream, out of the ring (where they may wrap around its end). */
  private copyOut(start: number, stop: number): Buffer {
    const size = this.ring.length
    const at = start % size
    const copy = Buffer.allocUnsafe(stop - start)
    const firstPart = this.ring.copy(copy, 0, at, Math.min(size, at + copy.length))
    if (firstPart < copy.length) this.ring.copy(copy, firstPart, 0, copy.length - firstPart)
    return copy
  }
}
