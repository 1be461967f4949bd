import type { Ora } from 'ora'
import { inForeground } from '../run/signal-router.js'
import { watchQuiet, type Timers, type WaitSurface } from './wait-display.js'
import type { QuietToolWatch } from '../run/reporter.js'

type OraFactory = typeof import('ora').default

/** Real time for the wait display; its ticks never keep resilient alive. */
export const realTimers: Timers = {
  now: () => Date.now(),
  every(fn, ms) {
    const timer = setInterval(fn, ms)
    timer.unref()
    return { cancel: () => clearInterval(timer) }
  },
}

/**
 * An ora spinner on `stream` that is drawn only where the tool's output left the cursor at the start of a line:
 * erasing the line would take the tool's prompt or progress bar (`Proceed (Y/n)? `, `\r 45%`) with it. `saw` is told
 * of each chunk of the tool's output. ora is loaded in the background; until then nothing is drawn.
 */
export function lineStartSurface(loading: Promise<OraFactory>, stream: NodeJS.WriteStream): WaitSurface & { saw(chunk: Buffer): void } {
  let ora: OraFactory | undefined
  loading.then(factory => { ora = factory }, () => {})
  let atLineStart = true
  let spinner: Ora | undefined
  return {
    saw(chunk) {
      if (chunk.length > 0) atLineStart = chunk[chunk.length - 1] === 0x0a
    },
    show(text) {
      // Not in the background either (`&`, `bg`): it would draw over the line the person is typing.
      if (!atLineStart || !ora || !inForeground()) return
      if (spinner) spinner.text = text
      // discardStdin off: the tool reads the terminal; hideCursor off: a SIGKILL would leave the cursor hidden.
      else spinner = ora({ text, stream, discardStdin: false, hideCursor: false }).start()
    },
    clear() {
      spinner?.stop()
      spinner = undefined
    },
  }
}

/** The spinner of a tool silent for a second (watchQuiet), drawn on `stream` by `lineStartSurface`. */
export function watchQuietTool(loading: Promise<OraFactory>, stream: NodeJS.WriteStream, tool: string, host?: string): QuietToolWatch & { surface: WaitSurface } {
  const surface = lineStartSurface(loading, stream)
  const watch = watchQuiet({ surface, timers: realTimers, tool, host })
  return { surface, output: chunk => { watch.output(); surface.saw(chunk) }, stop: () => watch.stop() }
}
