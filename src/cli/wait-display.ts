/**
 * What the terminal shows while nothing happens: a spinner once the tool has printed nothing for a second,
 * a count-down during the wait before a retry. Pure timing logic over an injected surface and clock; the reporter
 * draws the surface with ora (the only importer of ora), and only where a spinner can be seen.
 */

/** Where the spinner is drawn: show() starts or updates it, clear() erases it from the line. */
export interface WaitSurface {
  show(text: string): void
  clear(): void
}

export interface Timers {
  now(): number
  every(fn: () => void, ms: number): { cancel(): void }
}

/** A spinner only on an interactive terminal that has a width, outside CI: elsewhere plain lines, no frames. */
export function spinnerAllowed({ isTTY, columns, ci, quiet }: { isTTY: boolean | undefined; columns: number | undefined; ci: boolean; quiet?: boolean }): boolean {
  return Boolean(isTTY) && !ci && !quiet && typeof columns === 'number' && columns > 0
}

/** `waiting 4 s before trying mirrors.aliyun.com`. */
export function countdownText(secondsLeft: number, next: string): string {
  return `waiting ${Math.max(0, Math.ceil(secondsLeft))} s before trying ${next}`
}

/** `no output from pip for 3 s (pypi.org)`. */
export function quietText(quietMs: number, tool: string, host?: string): string {
  return `no output from ${tool} for ${Math.floor(quietMs / 1000)} s${host ? ` (${host})` : ''}`
}

/**
 * Watches the tool's output: after `afterMs` without any, shows a spinner with how long it has been quiet; `output()`
 * must be called before each chunk of the tool's output is written, and clears the spinner first.
 */
export function watchQuiet({ surface, timers, tool, host, afterMs = 1000, tickMs = 250 }:
  { surface: WaitSurface; timers: Timers; tool: string; host?: string; afterMs?: number; tickMs?: number }) {
  let lastOutput = timers.now()
  let shown = false
  const ticker = timers.every(() => {
    const quiet = timers.now() - lastOutput
    if (quiet < afterMs) return
    surface.show(quietText(quiet, tool, host))
    shown = true
  }, tickMs)
  const clear = () => {
    if (shown) surface.clear()
    shown = false
  }
  return {
    output() {
      clear()
      lastOutput = timers.now()
    },
    stop() {
      ticker.cancel()
      clear()
    },
  }
}

/** The wait before a retry, shown as a count-down updated every second; the surface is cleared when it ends. */
export async function countdown({ seconds, next, surface, sleep }: { seconds: number; next: string; surface: WaitSurface; sleep: (ms: number) => Promise<void> }): Promise<void> {
  let left = seconds * 1000
  try {
    while (left > 0) {
      surface.show(countdownText(left / 1000, next))
      // To the next whole second first, so the figure shown changes on the second.
      const step = left % 1000 || 1000
      await sleep(step)
      left -= step
    }
  } finally {
    surface.clear()
  }
}
