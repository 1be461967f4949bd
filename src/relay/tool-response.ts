import type { ServerResponse } from 'node:http'

/**
 * Ends a response as a broken transfer: a reset, which every client reports as an error (a connection closed
 * early could pass for the end of a body whose length some clients do not check, urllib3 1.26 among them).
 */
export function breakOff(response: ServerResponse): void {
  if (response.socket) response.socket.resetAndDestroy()
  else response.destroy()
}

/** Resolves once `response` can take more, or is gone. */
export function drained(response: ServerResponse): Promise<void> {
  return new Promise(resolve => {
    const done = () => {
      response.off('drain', done)
      response.off('close', done)
      resolve()
    }
    response.on('drain', done)
    response.on('close', done)
  })
}

/**
 * How many bytes of small files may wait in memory, all transfers together, to be checked before the tool gets
 * them: a copy that fails its hash is then fetched again elsewhere instead of breaking the tool's download.
 */
export class HoldBudget {
  private used = 0

  constructor(readonly perFile = 4 * 1024 * 1024, private readonly total = 24 * 1024 * 1024) {}

  /** Reserves `bytes`; false when the file is too big or the budget is spent (it is then streamed). */
  take(bytes: number): boolean {
    if (bytes > this.perFile || this.used + bytes > this.total) return false
    this.used += bytes
    return true
  }

  give(bytes: number): void {
    this.used -= bytes
  }
}
