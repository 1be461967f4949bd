import type { RelayMemory } from './relay-memory.js'

/**
 * The writing thread's whole program, sent as text like the reader's (src/exec/relay-reader.ts). It writes what the
 * reader put in the ring, as much as lies in one stretch of it per write. Its writes block, as the event loop's do on
 * libuv's thread pool: a slow reader holds the tool back (the ring fills, then the tool's pipe). It alone tells the
 * main thread how a stretch ended, once every byte read is written: the order of the bytes is kept when the event
 * loop takes the stream back.
 *
 * Reading and writing are two threads so that neither waits for the other: one thread doing both leaves the tool
 * asleep on a full pipe while it waits on a write, and each sleep costs a wake-up (measured on 2 cores, 1 GB of
 * `head -c` into `| cat`: 1-2 s with two threads wherever the scheduler puts them, up to 12 s with one).
 */
export function writerThread(require: NodeJS.Require): void {
  const { writeSync } = require('node:fs') as typeof import('node:fs')
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads')
  const memory = workerData as RelayMemory
  const { slots, states } = memory
  const control = new Int32Array(memory.control)
  const counts = new BigInt64Array(memory.counts)
  const ring = Buffer.from(memory.ring)
  let written = 0

  /** Writes `length` bytes of the ring from `at` to the target; false when its reader has gone away. */
  const writeOn = (at: number, length: number): boolean => {
    let wait = 0.05
    for (const end = at + length; at < end;) {
      try {
        at += writeSync(memory.target, ring, at, end - at)
        wait = 0.05
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        if (code !== 'EAGAIN') return code !== 'EPIPE'
        // A non-blocking descriptor (Node makes a pipe it opens as process.stdout or process.stderr so, for every
        // process sharing it): wait for room rather than lose bytes, as briefly as the reader allows.
        Atomics.wait(control, slots.nap, 0, wait)
        wait = Math.min(wait * 2, 2)
      }
    }
    return true
  }

  // After its last word, it waits for the main thread to end it: an exit of its own could overtake that word.
  const parkForGood = () => {
    for (;;) Atomics.wait(control, slots.nap, 0)
  }

  parentPort!.postMessage('ready')
  for (;;) {
    const readerNews = Atomics.load(control, slots.readerNews)
    const total = Number(Atomics.load(counts, 0))
    if (total > written) {
      const at = written % ring.length
      const length = Math.min(total - written, ring.length - at)
      if (!writeOn(at, length)) {
        Atomics.store(control, slots.state, states.brokenPipe)
        parentPort!.postMessage('broken-pipe')
        return parkForGood()
      }
      written += length
      Atomics.store(counts, 1, BigInt(written))
      Atomics.add(control, slots.writerNews, 1)
      Atomics.notify(control, slots.writerNews)
      continue
    }
    const state = Atomics.load(control, slots.state)
    // The reader stops reading before it says so: with that said and its count written, nothing is left.
    if ((state === states.readerQuiet || state === states.readerEnded) && Number(Atomics.load(counts, 0)) === written) {
      Atomics.store(control, slots.state, states.parked)
      parentPort!.postMessage(state === states.readerEnded ? 'end' : 'quiet')
      if (state === states.readerEnded) return parkForGood()
      continue
    }
    Atomics.wait(control, slots.readerNews, readerNews)
  }
}
