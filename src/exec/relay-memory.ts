/**
 * What resilient's main thread and the two relay threads of one stream share (src/exec/relay-threads.ts): every field
 * is shared memory or a plain number, so that each thread's program can be sent as text (see relay-reader.ts).
 */
export interface RelayMemory {
  /** resilient's end of the tool's pipe (non-blocking) and the descriptor its bytes go to (the caller's, blocking). */
  source: number
  target: number
  /** Int32Array, indexed by SLOTS. */
  control: SharedArrayBuffer
  /** BigInt64Array [bytes read, bytes written]. */
  counts: SharedArrayBuffer
  /** What was read, in a ring: each read lands after the one before; the writer writes it on from there. */
  ring: SharedArrayBuffer
  /** Float64Array of [bytes read in all after this read, its ticket] per read, a ring of its own. */
  marks: SharedArrayBuffer
  /** Int32Array [next ticket], one for the whole process: tickets order the reads of every relay. */
  tickets: SharedArrayBuffer
  /** The most one read takes: the ring past the last mark that a read may be overwriting. */
  readBytes: number
  slots: typeof SLOTS
  states: typeof STATES
}

export const SLOTS = {
  /** One of STATES. */
  state: 0,
  /** Reads made so far (their marks are in place). */
  reads: 1,
  /** Bumped by the reader after each read and when it stops: the writer waits on it. */
  readerNews: 2,
  /** Bumped by the writer after each write: the reader waits on it while the ring is full. */
  writerNews: 3,
  /** A word nobody changes, to nap on. */
  nap: 4,
} as const

export const STATES = { parked: 0, relaying: 1, readerQuiet: 2, readerEnded: 3, brokenPipe: 4 } as const

/** How a stretch of relaying ended: the tool went quiet, every writer closed the pipe, or the reader went away. */
export type RelayEnd = 'quiet' | 'end' | 'broken-pipe'
