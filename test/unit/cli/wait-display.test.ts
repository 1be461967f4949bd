import { describe, expect, it } from 'vitest'
import { countdown, countdownText, quietText, spinnerAllowed, watchQuiet, type WaitSurface } from '../../../src/cli/wait-display.js'

function recording(): WaitSurface & { events: string[] } {
  const events: string[] = []
  return { events, show: text => events.push(`show ${text}`), clear: () => events.push('clear') }
}

function manualTimers() {
  let now = 0
  const tickers: { every: number; next: number; fn: () => void; cancelled: boolean }[] = []
  return {
    now: () => now,
    every(fn: () => void, ms: number) {
      const ticker = { every: ms, next: now + ms, fn, cancelled: false }
      tickers.push(ticker)
      return { cancel: () => { ticker.cancelled = true } }
    },
    advance(ms: number) {
      const end = now + ms
      for (;;) {
        const due = tickers.filter(t => !t.cancelled && t.next <= end).sort((a, b) => a.next - b.next)[0]
        if (!due) break
        now = due.next
        due.next += due.every
        due.fn()
      }
      now = end
    },
  }
}

describe('spinnerAllowed', () => {
  it('in an interactive terminal with a width', () => expect(spinnerAllowed({ isTTY: true, columns: 80, ci: false })).toBe(true))
  it('not in CI', () => expect(spinnerAllowed({ isTTY: true, columns: 80, ci: true })).toBe(false))
  it('not when piped', () => expect(spinnerAllowed({ isTTY: false, columns: undefined, ci: false })).toBe(false))
  it('not in a terminal without a width', () => expect(spinnerAllowed({ isTTY: true, columns: 0, ci: false })).toBe(false))
  it('not with --quiet', () => expect(spinnerAllowed({ isTTY: true, columns: 80, ci: false, quiet: true })).toBe(false))
})

describe('texts', () => {
  it('count-down', () => expect(countdownText(3.2, 'mirrors.aliyun.com')).toBe('waiting 4 s before trying mirrors.aliyun.com'))
  it('quiet tool', () => expect(quietText(3400, 'pip', 'pypi.org')).toBe('no output from pip for 3 s (pypi.org)'))
})

describe('watchQuiet', () => {
  it('shows nothing while the tool prints, a spinner after 1 s of silence, cleared before the output resumes', () => {
    const surface = recording()
    const timers = manualTimers()
    const watch = watchQuiet({ surface, timers, tool: 'pip', host: 'pypi.org' })
    timers.advance(500)
    watch.output()
    timers.advance(900)
    expect(surface.events).toEqual([])
    timers.advance(600)
    expect(surface.events.at(-1)).toBe('show no output from pip for 1 s (pypi.org)')
    timers.advance(1000)
    expect(surface.events.at(-1)).toBe('show no output from pip for 2 s (pypi.org)')
    watch.output()
    expect(surface.events.at(-1)).toBe('clear')
    const shown = surface.events.length
    timers.advance(900)
    expect(surface.events).toHaveLength(shown)
    watch.stop()
  })

  it('updates at least every second while silent: never 2 s without a visible change', () => {
    const surface = recording()
    const timers = manualTimers()
    const watch = watchQuiet({ surface, timers, tool: 'npm' })
    const shownAt: number[] = []
    const show = surface.show
    surface.show = text => { shownAt.push(timers.now()); show(text) }
    timers.advance(10_000)
    watch.stop()
    const texts = new Set(surface.events.filter(e => e.startsWith('show')))
    expect(texts.size).toBeGreaterThanOrEqual(9)
    expect(shownAt[0]).toBeLessThanOrEqual(1250)
    expect(surface.events.at(-1)).toBe('clear')
  })

  it('stop() clears a spinner that is shown, and only then', () => {
    const surface = recording()
    const timers = manualTimers()
    watchQuiet({ surface, timers, tool: 'pip' }).stop()
    expect(surface.events).toEqual([])
  })
})

describe('countdown', () => {
  it('counts down every second and clears at the end', async () => {
    const surface = recording()
    const slept: number[] = []
    await countdown({ seconds: 3.5, next: 'mirrors.aliyun.com', surface, sleep: async ms => { slept.push(ms) } })
    expect(surface.events).toEqual(['show waiting 4 s before trying mirrors.aliyun.com', 'show waiting 3 s before trying mirrors.aliyun.com',
      'show waiting 2 s before trying mirrors.aliyun.com', 'show waiting 1 s before trying mirrors.aliyun.com', 'clear'])
    expect(slept).toEqual([500, 1000, 1000, 1000])
  })

  it('clears even when the wait is interrupted', async () => {
    const surface = recording()
    await expect(countdown({ seconds: 2, next: 'x', surface, sleep: async () => { throw new Error('interrupted') } })).rejects.toThrow('interrupted')
    expect(surface.events.at(-1)).toBe('clear')
  })
})
