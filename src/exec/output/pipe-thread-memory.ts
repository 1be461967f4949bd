/**
 * What resilient's main thread and the relay thread of one stream share (src/exec/output/pipe-thread.ts): every field is
 * shared memory or a plain number, so that the thread's program can be sent as text (src/exec/output/pipe-thread-program.ts).
 */
export interface RelayMemory {
  /** resilient's end of the tool's pipe (non-blocking) and the descriptor its bytes go to (the caller's). */
  source: number
  target: number
  /** Int32Array, indexed by SLOTS. */
  control: SharedArrayBuffer
  /** What was read, in a ring: each read lands after the one before and is written on from there. */
  ring: SharedArrayBuffer
  /** Float64Array of [bytes read in all after this read, its ticket] per read, a ring of its own. */
  marks: SharedArrayBuffer
  /** Int32Array [next ticket], one for the whole process: tickets order the reads of every relay. */
  tickets: SharedArrayBuffer
  /** The most one read takes (a pipe's usual capacity): the ring past the last mark that a read may be filling. */
  readBytes: number
  slots: typeof SLOTS
  states: typeof STATES
}

export const SLOTS = {
  /** One of STATES. */
  state: 0,
  /** Reads made so far (their marks are in place). */
  reads: 1,
  /** A word nobody changes, to nap on. */
  nap: 2,
} as const

export const STATES = { parked: 0, relaying: 1 } as const

/** How a stretch of relaying ended: the tool went quiet, every writer closed the pipe, or the reader went away. */
export type RelayEnd = 'quiet' | 'end' | 'broken-pipe'
