import type { BoundRelay } from '../relay/listen.js'
import type { Relay } from '../relay/server.js'

/** What a run reads of its relay. */
export type RelayView = Pick<Relay, 'tally' | 'served' | 'lookedAhead' | 'mirrorPages' | 'indexPages' | 'close'>

/** A relay whose code has not loaded: it has served nothing, and holds the requests that came. */
function waitingRelay(bound: BoundRelay): RelayView {
  return {
    tally: () => ({}),
    served: () => ({ bytes: 0, requests: 0, open: bound.held() }),
    lookedAhead: () => undefined,
    mirrorPages: () => undefined,
    indexPages: () => [],
    close: () => bound.close(),
  }
}

export interface DeferredRelay {
  /** Starts loading the relay's code and serving what its socket holds (once; later calls do nothing). */
  load(): void
  /** The relay as it is now: the loaded one, or one that has served nothing yet. */
  now(): RelayView
  /** The relay once loading is over: the waiting one when loading never started (no tool ran) or failed. */
  loaded(): Promise<RelayView>
}

/**
 * A relay bound already, its code loaded by `start` on `load()`. Should that fail (a broken install), every request
 * the socket holds or gets is answered 502 with the reason, which the tool reports as the index's failure: the run
 * goes on to its next attempt as after any failed one.
 */
export function deferRelay(bound: BoundRelay, start: () => Promise<Relay>, say: (line: string, important: boolean) => void): DeferredRelay {
  const waiting = waitingRelay(bound)
  let current = waiting
  let loading: Promise<RelayView> | undefined
  const refuse = (reason: string) => bound.serve((_request, response) => void response.writeHead(502, { 'content-type': 'text/plain' }).end(`resilient relay: could not start (${reason})\n`))
  return {
    load: () => {
      loading ??= start().then(relay => (current = relay), (error: Error) => {
        say(`resilient's relay could not start (${error.message}): the tool's requests to it fail`, true)
        refuse(error.message)
        return waiting
      })
    },
    now: () => current,
    loaded: () => loading ?? Promise.resolve(waiting),
  }
}
