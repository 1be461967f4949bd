import type { RelayMemory } from './relay-memory.js'

/**
 * The reading thread's whole program. It is sent as text to `new Worker(code, { eval: true })`, so it refers to
 * nothing outside its body (the layout comes in `workerData`) and gets `require` as a parameter: it then runs the same
 * from the built bundle and from the TypeScript sources the tests run.
 *
 * It never blocks in read(2): Node joins its threads at exit and cannot interrupt a system call, so a thread waiting
 * in read(2) for a quiet tool would keep resilient from ever exiting. The source is non-blocking; when it is empty the
 * thread naps in Atomics.wait, which an exit does interrupt, from 0.05 ms doubling to 2 ms (a busy tool is not kept
 * waiting, a quiet one does not keep a core busy). With fewer than QUIET_BYTES in QUIET_MS, it stops: the tool is
 * quiet, and the event loop takes the stream back once the writer has written everything.
 */
export function readerThread(require: NodeJS.Require): void {
  const { readSync } = require('node:fs') as typeof import('node:fs')
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads')
  const memory = workerData as RelayMemory
  const { slots, states } = memory
  const control = new Int32Array(memory.control)
  const counts = new BigInt64Array(memory.counts)
  const marks = new Float64Array(memory.marks)
  const tickets = new Int32Array(memory.tickets)
  const ring = Buffer.from(memory.ring)
  const QUIET_MS = 100
  const QUIET_BYTES = 64 * 1024
  let total = 0
  let reads = 0

  /** Reads into the ring at `at`: the byte count, 0 at the end (or a failed read), -1 when the pipe is empty now. */
  const readInto = (at: number, length: number): number => {
    try {
      return readSync(memory.source, ring, at, length, null)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      return code === 'EAGAIN' || code === 'EINTR' ? -1 : 0
    }
  }
  const tellWriter = () => {
    Atomics.add(control, slots.readerNews, 1)
    Atomics.notify(control, slots.readerNews)
  }
  const stop = (state: number) => {
    Atomics.compareExchange(control, slots.state, states.relaying, state)
    tellWriter()
  }

  const readUntilStopped = (): void => {
    let wait = 0.05
    let windowStart = performance.now()
    let windowBytes = 0
    // The writer stops it only on a broken pipe.
    while (Atomics.load(control, slots.state) === states.relaying) {
      const writerNews = Atomics.load(control, slots.writerNews)
      const written = Number(Atomics.load(counts, 1))
      // Unwritten bytes are never overwritten, and one read lies in one stretch of the ring.
      const room = Math.min(memory.readBytes, ring.length - (total - written), ring.length - (total % ring.length))
      if (room === 0) {
        // The target's reader is slower than the tool: the tool waits too, which is not quiet.
        Atomics.wait(control, slots.writerNews, writerNews, 100)
        windowStart = performance.now()
        windowBytes = 0
        continue
      }
      const bytes = readInto(total % ring.length, room)
      if (bytes === 0) return stop(states.readerEnded)
      if (bytes > 0) {
        total += bytes
        windowBytes += bytes
        wait = 0.05
        // The mark is in place before the count that makes it visible: the main thread reads it only after the count.
        const slot = (reads % (marks.length / 2)) * 2
        marks[slot] = total
        marks[slot + 1] = Atomics.add(tickets, 0, 1)
        Atomics.store(control, slots.reads, ++reads)
        Atomics.store(counts, 0, BigInt(total))
        tellWriter()
        continue
      }
      Atomics.wait(control, slots.nap, 0, wait)
      wait = Math.min(wait * 2, 2)
      const now = performance.now()
      if (now - windowStart >= QUIET_MS) {
        if (windowBytes < QUIET_BYTES) return stop(states.readerQuiet)
        windowStart = now
        windowBytes = 0
      }
    }
  }

  parentPort!.postMessage('ready')
  for (;;) {
    // Parked: an Atomics.wait without a timeout costs nothing while the tool is quiet, and an exit still ends it.
    for (let state; (state = Atomics.load(control, slots.state)) !== states.relaying;) Atomics.wait(control, slots.state, state)
    readUntilStopped()
  }
}
