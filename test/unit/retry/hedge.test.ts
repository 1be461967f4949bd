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
  const _ = (now: number, activity: { connectedAt?: number; receivedBytes?: number }, probe: 'pending' | 'answered' | 'no-answer', expected: boolean) => () =>
    expect(shouldAbandon({ now, activity, probe })).toBe(expected)
  it('abandons 2 s after the tool connected, when it received nothing and the probe no answer', _(2500, { connectedAt: 500, receivedBytes: 0 }, 'no-answer', true))
  it('not before 2 s of connection', _(2400, { connectedAt: 500, receivedBytes: 0 }, 'no-answer', false))
  it('never while the tool receives data', _(9000, { connectedAt: 500, receivedBytes: 1 }, 'no-answer', false))
  it('never when the index answers the probe', _(9000, { connectedAt: 500, receivedBytes: 0 }, 'answered', false))
  it('not while the probe still waits', _(9000, { connectedAt: 500, receivedBytes: 0 }, 'pending', false))
  it('not while the tool is still starting (no connection yet)', _(9000, { receivedBytes: 0 }, 'no-answer', false))
  it('never when received bytes cannot be measured', _(9000, { connectedAt: 500 }, 'no-answer', false))
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
    /** Moves time on in 50 ms steps, firing what falls due (timers set by timers too) and letting promises settle. */
    async advance(ms: number) {
      for (const end = now + ms; now < end;) {
        now = Math.min(end, now + 50)
        for (const timer of timers.filter(t => !t.cancelled && t.at <= now)) {
          timer.cancelled = true
          timer.fn()
        }
        for (let i = 0; i < 5; i++) await Promise.resolve()
      }
    },
  }
}

describe('watchHedge', () => {
  function setup(probe: (signal: AbortSignal) => Promise<boolean>, bytes: () => number | undefined, connectedAt: number | null = 0) {
    const time = manualTime()
    const watch = watchHedge('pypi.test', { probe, activity: () => ({ connectedAt: connectedAt ?? undefined, receivedBytes: bytes() }), now: time.now, setTimer: time.setTimer })
    return { time, watch }
  }
  const hanging = (signal: AbortSignal) => new Promise<boolean>(resolve => signal.addEventListener('abort', () => resolve(false)))

  it('aborts the attempt on a black hole: the probe gets no answer, the child nothing', async () => {
    const { time, watch } = setup(hanging, () => 0)
    await time.advance(1000)
    expect(watch.signal.aborted).toBe(false)
    await time.advance(1000)
    expect(watch.signal.aborted).toBe(true)
    expect(watch.signal.reason).toBe(hedgeReason('pypi.test', 2000))
  })

  it('leaves an attempt alone while the child receives data', async () => {
    const { time, watch } = setup(hanging, () => 4096)
    await time.advance(5000)
    expect(watch.signal.aborted).toBe(false)
  })

  it('leaves an attempt alone when the index answers, even if the child has nothing yet', async () => {
    const { time, watch } = setup(async () => true, () => 0)
    await time.advance(5000)
    expect(watch.signal.aborted).toBe(false)
  })

  it('counts the 2 s from the tool\'s first connection, not from its start', async () => {
    const { time, watch } = setup(hanging, () => 0, 1500)
    await time.advance(3000)
    expect(watch.signal.aborted).toBe(false)
    await time.advance(500)
    expect(watch.signal.aborted).toBe(true)
  })

  it('never aborts a tool that has not connected yet', async () => {
    const { time, watch } = setup(hanging, () => 0, null)
    await time.advance(10_000)
    expect(watch.signal.aborted).toBe(false)
  })

  it('waits the full 2 s after a probe that fails at once (connection refused)', async () => {
    const { time, watch } = setup(async () => false, () => 0)
    await time.advance(100)
    expect(watch.signal.aborted).toBe(false)
    await time.advance(1800)
    expect(watch.signal.aborted).toBe(false)
    await time.advance(400)
    expect(watch.signal.aborted).toBe(true)
  })

  it('stops probing and deciding once the attempt ended', async () => {
    let probeSignal: AbortSignal | undefined
    const { time, watch } = setup(signal => { probeSignal = signal; return hanging(signal) }, () => 0)
    watch.stop()
    expect(probeSignal!.aborted).toBe(true)
    await time.advance(5000)
    expect(watch.signal.aborted).toBe(false)
  })
})
