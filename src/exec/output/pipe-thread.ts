import { Worker } from 'node:worker_threads'
import { SLOTS, STATES, type RelayEnd, type RelayMemory } from './pipe-thread-memory.js'
import { relayProgram } from './pipe-thread-program.js'

/** A piece of what the thread relayed: one read's bytes (or, where older marks were overwritten, several reads'). */
export interface RelayedPiece {
  bytes: Buffer
  ticket: number
}

/** One ticket counter for every relay in this process: the pieces of stdout and stderr merge in the order read. */
const TICKETS = new SharedArrayBuffer(4)
const MARKS = 4096

/**
 * A thread that copies one output stream of the tool from resilient's end of the pipe to the caller's descriptor
 * (src/exec/output/pipe-thread-program.ts), reading and writing through one reused ring: none of the ~50 µs of event loop and
 * thread-pool hand-off the event loop's copy costs per chunk, which matters only for large outputs
 * (src/exec/output/forward-output.ts decides when). The ring keeps the last `tailBytes` relayed, for the diagnosis: `take()`
 * copies them out while the thread runs.
 */
export class RelayThread {
  private readonly control: Int32Array
  private readonly marks: Float64Array
  private readonly ring: Buffer
  private takenReads = 0
  private takenBytes = 0
  private ended: ((how: RelayEnd) => void) | undefined
  /** The thread died (a bug, or no memory for it): the stream is not given to it again. */
  broken = false

  private constructor(private readonly worker: Worker, private readonly memory: RelayMemory, private readonly tailBytes: number) {
    this.control = new Int32Array(memory.control)
    this.marks = new Float64Array(memory.marks)
    this.ring = Buffer.from(memory.ring)
    worker.on('message', (how: RelayEnd) => this.ended?.(how))
    worker.on('error', () => {})
    // What the thread read but had not written is lost with it; the event loop reads on from there.
    worker.on('exit', () => {
      this.broken = true
      this.ended?.('quiet')
    })
  }

  /** Starts the thread, parked; undefined when it could not start (the event loop then copies everything). */
  static start(source: number, target: number, tailBytes: number): Promise<RelayThread | undefined> {
    // A read never overwrites the tail being copied out: the ring holds the tail, a read, and room to spare.
    const ringBytes = 4 * Math.max(tailBytes, 256 * 1024)
    const memory: RelayMemory = {
      source, target, control: new SharedArrayBuffer(4 * 3), ring: new SharedArrayBuffer(ringBytes), marks: new SharedArrayBuffer(MARKS * 16),
      tickets: TICKETS, readBytes: 64 * 1024, slots: SLOTS, states: STATES,
    }
    return new Promise(resolve => {
      let worker: Worker
      try {
        // stdout and stderr of its own: otherwise Node creates the main thread's process.stdout to carry the thread's
        // output, which makes the caller's descriptor non-blocking for every process sharing it (they then lose bytes).
        worker = new Worker(`(${relayProgram.toString()})(require)`, { eval: true, workerData: memory, stdout: true, stderr: true, stdin: false })
      } catch {
        return resolve(undefined)
      }
      // Parked, it must not keep resilient running; it is held (ref) only while it relays.
      worker.unref()
      worker.once('message', () => resolve(new RelayThread(worker, memory, tailBytes)))
      worker.once('error', () => resolve(undefined))
      worker.once('exit', () => resolve(undefined))
    })
  }

  /** Gives the stream to the thread until the tool goes quiet, the stream ends or its reader goes away. */
  relay(): Promise<RelayEnd> {
    if (this.broken) return Promise.resolve('quiet')
    this.worker.ref()
    return new Promise(resolve => {
      this.ended = how => {
        this.ended = undefined
        this.worker.unref()
        resolve(how)
      }
      Atomics.store(this.control, SLOTS.state, STATES.relaying)
      Atomics.notify(this.control, SLOTS.state)
    })
  }

  /**
   * What the thread relayed since the last call, up to its last `tailBytes`, as pieces in the order read. Safe while
   * it runs: the copy is checked afterwards against how far the thread has gone, and made again if it was overtaken.
   */
  take(): RelayedPiece[] {
    for (;;) {
      const reads = Atomics.load(this.control, SLOTS.reads)
      if (reads === this.takenReads) return []
      const end = this.endOf(reads - 1)
      const from = Math.max(this.takenBytes, end - this.tailBytes)
      // The thread may be writing the mark of read `reads` now, over that of `reads - MARKS`.
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

  /** Ends the thread; resolves once it is gone (only then may the descriptors it uses be closed). */
  async stop(): Promise<void> {
    await this.worker.terminate()
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
