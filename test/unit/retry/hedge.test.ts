import { describe, expect, it } from 'vitest'
import { mayHedge, shouldAbandon, silenceNeeded, SLOWER_FACTOR, watchHedge } from '../../../src/retry/hedge.js'
import type { Source } from '../../../src/retry/types.js'

const source = (kind: Source['kind'], url = 'https://pypi.org/simple'): Source => ({ id: kind, url: undefined, indexUrl: url, kind, label: kind })

describe('mayHedge', () => {
  it('hedges the public index of a network attempt that has somewhere to go', () => expect(mayHedge({ source: source('upstream'), hasNextSource: true, networked: true })).toBe(true))
  it('and a mirror', () => expect(mayHedge({ source: source('mirror'), hasNextSource: true, networked: true })).toBe(true))
  it('never an index the person chose as their own', () => expect(mayHedge({ source: source('private', 'https://pypi.corp.example/simple'), hasNextSource: true, networked: true })).toBe(false))
  it('never a local index', () => expect(mayHedge({ source: source('local', 'file:///wheels'), hasNextSource: true, networked: true })).toBe(false))
  it('never without a next source', () => expect(mayHedge({ source: source('upstream'), hasNextSource: false, networked: true })).toBe(false))
  it('never a command that is not a network one', () => expect(mayHedge({ source: source('upstream'), hasNextSource: true, networked: false })).toBe(false))
  it('never when the person set the tool\'s own timeout or retries', () => expect(mayHedge({ source: source('upstream'), hasNextSource: true, networked: true, userKnobs: true })).toBe(false))
})

describe('shouldAbandon', () => {
  type Probes = { own?: number; other?: number }
  const _ = (now: number, activity: { connectedAt?: number; receivedBytes?: number }, probes: Probes, expected: boolean) => () =>
    expect(shouldAbandon({ now, activity, probes: { sentAt: 0, ...probes } })).toBe(expected)
  const silent = { connectedAt: 500, receivedBytes: 0 }
  it('abandons 2 s after the tool connected, when it received nothing, its index no answer and another source answered fast',
    _(2500, silent, { other: 40 }, true))
  it('not before 2 s of connection', _(2400, silent, { other: 40 }, false))
  it('never while the tool receives data', _(9000, { connectedAt: 500, receivedBytes: 1 }, { other: 40 }, false))
  it('never when the index answers, however slowly', _(60_000, silent, { own: 30_000, other: 40 }, false))
  it('never when no other source was seen answering: every source may be slow', _(60_000, silent, {}, false))
  it('never when the other source took about as long: a long-haul link (3.5 s each)', _(9000, silent, { other: 3500 }, false))
  it('only after three times what the other source took', () => {
    expect(shouldAbandon({ now: 10_400, activity: silent, probes: { sentAt: 0, other: 3500 } })).toBe(false)
    expect(shouldAbandon({ now: 10_500, activity: silent, probes: { sentAt: 0, other: 3500 } })).toBe(true)
  })
  it('not while the tool is still starting (no connection yet)', _(9000, { receivedBytes: 0 }, { other: 40 }, false))
  it('never when received bytes cannot be measured', _(9000, { connectedAt: 500 }, { other: 40 }, false))
  it('asks for at least afterMs of silence and SLOWER_FACTOR times the other\'s answer', () => {
    expect(silenceNeeded(40)).toBe(2000)
    expect(silenceNeeded(3500)).toBe(SLOWER_FACTOR * 3500)
  })
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
  const hanging = (signal: AbortSignal) => new Promise<boolean>(resolve => signal.addEventListener('abort', () => resolve(false)))
  /** A request answered after `ms` of the manual clock. */
  const answersAfter = (time: ReturnType<typeof manualTime>, ms: number) => (signal: AbortSignal) => new Promise<boolean>(resolve => {
    time.setTimer(() => resolve(true), ms)
    signal.addEventListener('abort', () => resolve(false))
  })
  function setup(probe: (time: ReturnType<typeof manualTime>) => (signal: AbortSignal) => Promise<boolean>, other: (time: ReturnType<typeof manualTime>) => (signal: AbortSignal) => Promise<boolean>,
    bytes: () => number | undefined, connectedAt: number | null = 0) {
    const time = manualTime()
    const watch = watchHedge('pypi.test', { probe: probe(time), other: { host: 'mirror.test', probe: other(time) },
      activity: () => ({ connectedAt: connectedAt ?? undefined, receivedBytes: bytes() }), now: time.now, setTimer: time.setTimer })
    return { time, watch }
  }
  const fastMirror = (time: ReturnType<typeof manualTime>) => answersAfter(time, 50)

  it('aborts the attempt on a black hole while the next source answers: about 2 s, naming both', async () => {
    const { time, watch } = setup(() => hanging, fastMirror, () => 0)
    await time.advance(1900)
    expect(watch.signal.aborted).toBe(false)
    await time.advance(500)
    expect(watch.signal.aborted).toBe(true)
    expect(watch.signal.reason).toMatch(/^no answer from pypi\.test: nothing received in 2 s, while mirror\.test answered a request of resilient's own in 50 ms$/)
  })

  it('never aborts when no other source answers either', async () => {
    const { time, watch } = setup(() => hanging, () => hanging, () => 0)
    await time.advance(60_000)
    expect(watch.signal.aborted).toBe(false)
  })

  it('a long-haul link, every index answering after 3.5 s: nothing is abandoned', async () => {
    const { time, watch } = setup(t => answersAfter(t, 3500), t => answersAfter(t, 3500), () => 0)
    await time.advance(30_000)
    expect(watch.signal.aborted).toBe(false)
  })

  it('an index answering after 8 s while the other source answers after 3.5 s: still left alone (slow, not dead)', async () => {
    const { time, watch } = setup(t => answersAfter(t, 8000), t => answersAfter(t, 3500), () => 0)
    await time.advance(30_000)
    expect(watch.signal.aborted).toBe(false)
  })

  it('leaves an attempt alone while the child receives data', async () => {
    const { time, watch } = setup(() => hanging, fastMirror, () => 4096)
    await time.advance(5000)
    expect(watch.signal.aborted).toBe(false)
  })

  it('counts the 2 s from the tool\'s first connection, not from its start', async () => {
    const { time, watch } = setup(() => hanging, fastMirror, () => 0, 1500)
    await time.advance(3000)
    expect(watch.signal.aborted).toBe(false)
    await time.advance(600)
    expect(watch.signal.aborted).toBe(true)
  })

  it('never aborts a tool that has not connected yet', async () => {
    const { time, watch } = setup(() => hanging, fastMirror, () => 0, null)
    await time.advance(10_000)
    expect(watch.signal.aborted).toBe(false)
  })

  it('a request that fails at once (connection refused) is no answer: left after about 2 s when the other answered', async () => {
    const { time, watch } = setup(() => async () => false, fastMirror, () => 0)
    await time.advance(1900)
    expect(watch.signal.aborted).toBe(false)
    await time.advance(500)
    expect(watch.signal.aborted).toBe(true)
  })

  it('asks nothing of the other source while the index answers within 2 s (a healthy run)', async () => {
    let asked = 0
    const { time, watch } = setup(t => answersAfter(t, 300), () => signal => { asked++; return hanging(signal) }, () => 0)
    await time.advance(10_000)
    expect(asked).toBe(0)
    expect(watch.signal.aborted).toBe(false)
  })

  it('stops its requests and deciding once the attempt ended', async () => {
    const signals: AbortSignal[] = []
    const { time, watch } = setup(() => signal => { signals.push(signal); return hanging(signal) }, () => signal => { signals.push(signal); return hanging(signal) }, () => 0)
    await time.advance(2100)
    watch.stop()
    expect(signals.map(signal => signal.aborted)).toEqual([true, true])
    await time.advance(5000)
    expect(watch.signal.aborted).toBe(false)
  })
})
