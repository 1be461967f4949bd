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
