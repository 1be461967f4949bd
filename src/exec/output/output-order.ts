import type { RelayedPiece } from './pipe-thread.js'

/** A stream whose bytes a thread relays: what it relayed since last asked, as pieces with their read tickets. */
export interface RelayedStream {
  take(): RelayedPiece[]
}

/**
 * Gives the output of one run, stdout and stderr, to `give` in the order it was read, whether the event loop read it
 * or a relay thread did: the diagnosis reads the tail of both together, so a large stdout relayed by a thread must not
 * be given after the error that stderr printed later. A chunk the event loop reads was read after everything the
 * threads have relayed so far; the threads' own reads carry tickets from one counter, which merge them. As when the
 * event loop reads both pipes, this is the order read: what one pipe still held (at most its capacity) when a chunk
 * of the other was read comes after that chunk.
 */
export class OutputOrder {
  private readonly relayed = new Map<RelayedStream, boolean>()

  constructor(private readonly give: (chunk: Buffer, fromStderr: boolean) => void) {}

  /** A chunk the event loop read. */
  read(chunk: Buffer, fromStderr: boolean): void {
    this.catchUp()
    this.give(chunk, fromStderr)
  }

  /** A thread relays `stream` from now on; the function returned gives what it relayed and stops watching it. */
  watch(stream: RelayedStream, fromStderr: boolean): () => void {
    this.relayed.set(stream, fromStderr)
    return () => {
      this.catchUp()
      this.relayed.delete(stream)
    }
  }

  private catchUp(): void {
    if (!this.relayed.size) return
    const pieces = [...this.relayed].flatMap(([stream, fromStderr]) => stream.take().map(piece => ({ ...piece, fromStderr })))
    pieces.sort((a, b) => a.ticket - b.ticket)
    for (const piece of pieces) this.give(piece.bytes, piece.fromStderr)
  }
}
