import type { RelayContext } from './context.js'
import type { Piece } from './continuation.js'

/** How long a body may send nothing before another source is asked to continue it: a few hedging delays of its source. */
export function bodyStallMs(context: RelayContext, source: string): number {
  return Math.min(15_000, Math.max(2_000, 4 * context.latency.delayFor(source)))
}

export interface StallWatch {
  /** Bytes arrived. */
  progress(): void
  stop(): void
}

/**
 * Watches a body for silence. When it has sent nothing for bodyStallMs, `ask` opens the rest of the file elsewhere;
 * if that answers while the body is still silent, `switchTo` gets it (the silent body is then dropped), otherwise it
 * is closed unused. With no other source, the silent body is left to continue: never given up for being slow alone.
 */
export function watchForStall(context: RelayContext, piece: Piece, ask: () => Promise<Piece | undefined>, switchTo: (next: Piece) => void): StallWatch {
  let lastByte = context.now()
  let waitFrom = lastByte
  let asking = false
  const timer = setInterval(() => {
    if (asking || context.now() - Math.max(lastByte, waitFrom) < bodyStallMs(context, piece.source.id)) return
    asking = true
    const silentSince = lastByte
    const done = () => {
      asking = false
      waitFrom = context.now()
    }
    ask().then(next => {
      done()
      if (!next) return
      if (lastByte !== silentSince) return void next.controller.abort()
      clearInterval(timer)
      switchTo(next)
    }, done)
  }, 200)
  timer.unref()
  return {
    progress: () => { lastByte = context.now() },
    stop: () => clearInterval(timer),
  }
}
