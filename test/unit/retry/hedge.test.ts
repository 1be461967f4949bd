import { describe, expect, it } from 'vitest'
import { hedgeReason, mayHedge, shouldAbandon, watchHedge } from '../../../src/retry/hedge.js'
import type { Source } from '../../../src/retry/types.js'

const source = (kind: Source['kind'], url = 'https://pypi.org/simple'): Source => ({ id: kind, url: undefined, indexUrl: url, kind, label: kind })

describe('mayHedge', () => {
  it('hedges the public index of a network attempt that has somewhere to go', () => expect(mayHedge({ source: source('upstream'), hasNextSource: true, networked: true })).toBe(true))
  it('and a mirror', () => expect(mayHedge({ source: source('mirror'), hasNextSource: true, networked: true })).toBe(true))
  it('never an index the person chose as their own', () => expect(mayHedge({ source: source('private', 'https://pypi.corp.example/simple'), hasNextSource: true, networked: true })).toBe(false))
  it('never a local index', () => expect(mayHedge({ source: source('local', 'file:///wheels'), hasNextSource: true, networked: true })).toBe(false))
  it('never without a next source', () => expect(mayHedge({ source: source('upstream'), hasNextSource: false, networked: true })).toBe(false))
  it('never a command that is not a network one', () => expect(mayHedge({ source: source('upstream'), hasNextSource: true, networked: false })).toBe(false))
})

describe('shouldAbandon', () => {
  const _ = (elapsedMs: number, receivedBytes: number | undefined, probe: 'pending' | 'answered' | 'no-answer', expected: boolean) => () =>
    expect(shouldAbandon({ elapsedMs, receivedBytes, probe })).toBe(expected)
  it('abandons after 2 s of nothing received and no answer to the probe', _(2000, 0, 'no-answer', true))
  it('not before 2 s', _(1999, 0, 'no-answer', false))
  it('never while the child receives data', _(9000, 1, 'no-answer', false))
  it('never when the index answers the probe', _(9000, 0, 'answered', false))
  it('not while the probe still waits', _(9000, 0, 'pending', false))
  it('never when received bytes cannot be measured', _(9000, undefined, 'no-answer', false))
})

/** A clock and timers moved by hand. */
function manualTime() {
  let now = 0
  const timers: { at: number; fn: () => void; cancelled: boolean }[] = []
  return {
    now: () => now,
    setTimer(fn: () => void, ms: number) {
      const timer = { at: now + ms, fn, cancelled: false }
      timers.push(timer)
      return { cancel: () => { timer.cancelled = true } }
    },
    async advance(ms: number) {
      now += ms
      for (const timer of timers.filter(t => !t.cancelled && t.at <= now)) {
        timer.cancelled = true
        timer.fn()
      }
      for (let i = 0; i < 5; i++) await Promise.resolve()
    },
  }
}

describe('watchHedge', () => {
  function setup(probe: (signal: AbortSignal) => Promise<boolean>, bytes: () => number | undefined) {
    const time = manualTime()
    const watch = watchHedge('pypi.test', { probe, receivedBytes: bytes, now: time.now, setTimer: time.setTimer })
    return { time, watch }
  }
  const hanging = (signal: AbortSignal) => new Promise<boolean>(resolve => signal.addEventListener('abort', () => resolve(false)))

  it('aborts the attempt on a black hole: the probe gets no answer, the child nothing', async () => {
    const { time, watch } = setup(hanging, () => 0)
    await time.advance(1000)
    expect(watch.abort.aborted).toBe(false)
    await time.advance(1000)
    expect(watch.abort.aborted).toBe(true)
    expect(watch.abort.reason).toBe(hedgeReason('pypi.test', 2000))
  })

  it('leaves an attempt alone while the child receives data', async () => {
    const { time, watch } = setup(hanging, () => 4096)
    await time.advance(5000)
    expect(watch.abort.aborted).toBe(false)
  })

  it('leaves an attempt alone when the index answers, even if the child has nothing yet', async () => {
    const { time, watch } = setup(async () => true, () => 0)
    await time.advance(5000)
    expect(watch.abort.aborted).toBe(false)
  })

  it('waits the full 2 s after a probe that fails at once (connection refused)', async () => {
    const { time, watch } = setup(async () => false, () => 0)
    await time.advance(100)
    expect(watch.abort.aborted).toBe(false)
    await time.advance(1900)
    expect(watch.abort.aborted).toBe(true)
  })

  it('stops probing and deciding once the attempt ended', async () => {
    let probeSignal: AbortSignal | undefined
    const { time, watch } = setup(signal => { probeSignal = signal; return hanging(signal) }, () => 0)
    watch.stop()
    expect(probeSignal!.aborted).toBe(true)
    await time.advance(5000)
    expect(watch.abort.aborted).toBe(false)
  })
})
