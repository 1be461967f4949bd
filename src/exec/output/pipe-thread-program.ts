import type { RelayEnd, RelayMemory } from './pipe-thread-memory.js'

/**
 * The relay thread's whole program. It is sent as text to `new Worker(code, { eval: true })`, so it refers to nothing
 * outside its body (the layout comes in `workerData`) and gets `require` as a parameter: it then runs the same from
 * the built bundle and from the TypeScript sources the tests run.
 *
 * It never blocks in read(2): Node joins its threads at exit and cannot interrupt a system call, so a thread waiting
 * in read(2) for a quiet tool would keep resilient from ever exiting. The source is non-blocking; when it is empty the
 * thread naps in Atomics.wait, which an exit does interrupt, from 0.05 ms doubling to 2 ms (a busy tool is not kept
 * waiting, a quiet one does not keep a core busy). With fewer than QUIET_BYTES in QUIET_MS of reading, it hands the
 * stream back to the event loop and parks. Its writes block where the caller's descriptor does, as the event loop's
 * do on libuv's thread pool: a slow reader holds the tool back.
 */
export function relayProgram(require: NodeJS.Require): void {
  const { readSync, writeSync } = require('node:fs') as typeof import('node:fs')
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads')
  const memory = workerData as RelayMemory
  const { slots, states } = memory
  const control = new Int32Array(memory.control)
  const marks = new Float64Array(memory.marks)
  const tickets = new Int32Array(memory.tickets)
  const ring = Buffer.from(memory.ring)
  const nap = (ms: number) => Atomics.wait(control, slots.nap, 0, ms)
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
        // process sharing it): wait for room rather than lose bytes, as briefly as the reader allows. A fixed 2 ms nap
        // made a gigabyte into `| cat` take 4 to 30 s instead of 1 to 3 (measured on 2 cores).
        nap(wait)
        wait = Math.min(wait * 2, 2)
      }
    }
    return true
  }

  const relayUntilQuiet = (): RelayEnd => {
    let wait = 0.05
    let retries = 0
    let windowStart = performance.now()
    let windowBytes = 0
    for (;;) {
      const at = total % ring.length
      const bytes = readInto(at, Math.min(memory.readBytes, ring.length - at))
      if (bytes === 0) return 'end'
      if (bytes > 0) {
        retries = 0
        total += bytes
        windowBytes += bytes
        wait = 0.05
        // The mark is in place before the count that makes it visible: the main thread reads it only after the count.
        const slot = (reads % (marks.length / 2)) * 2
        marks[slot] = total
        marks[slot + 1] = Atomics.add(tickets, 0, 1)
        Atomics.store(control, slots.reads, ++reads)
        const writing = performance.now()
        if (!writeOn(at, bytes)) return 'broken-pipe'
        // Time spent waiting on a slow reader is not time the tool was quiet.
        windowStart += performance.now() - writing
        continue
      }
      // A pipe a fast tool keeps filling is empty for microseconds, and a nap lasts 0.1 ms at least: a few reads
      // again first let a gigabyte of `head -c` through in 0.5 s instead of 2 (measured on 2 cores).
      if (retries++ < 3) continue
      nap(wait)
      wait = Math.min(wait * 2, 2)
      const now = performance.now()
      if (now - windowStart >= QUIET_MS) {
        if (windowBytes < QUIET_BYTES) return 'quiet'
        windowStart = now
        windowBytes = 0
      }
    }
  }

  parentPort!.postMessage('ready')
  for (;;) {
    // Parked: an Atomics.wait without a timeout costs nothing while the tool is quiet, and an exit still ends it.
    for (let state; (state = Atomics.load(control, slots.state)) !== states.relaying;) Atomics.wait(control, slots.state, state)
    const how = relayUntilQuiet()
    Atomics.store(control, slots.state, states.parked)
    parentPort!.postMessage(how)
    // After its last word, it waits for the main thread to end it: an exit of its own could overtake that word.
    while (how !== 'quiet') Atomics.wait(control, slots.nap, 0)
  }
}
