import { afterEach, describe, expect, it, vi } from 'vitest'
import { findStall, formatBytes, watchProgress, type Sample } from '../../../src/exec/progress/progress-monitor.js'
import type { TreeCounters } from '../../../src/exec/progress/tree-counters.js'

const SETTINGS = { minBytesPerSecond: 500, windowSeconds: 30 }

/** One sample a second from per-second increments: [bytes, cpuSeconds]. */
function series(steps: [number, number][]): Sample[] {
  const samples: Sample[] = [{ at: 0, bytes: 0, cpuSeconds: 0, counter: 'tcp', connections: 1 }]
  for (const [bytes, cpu] of steps) {
    const last = samples.at(-1)!
    samples.push({ at: last.at + 1000, bytes: last.bytes + bytes, cpuSeconds: last.cpuSeconds + cpu, counter: 'tcp', connections: 1 })
  }
  return samples
}
const repeat = (count: number, step: [number, number]) => Array.from({ length: count }, () => step)

/** Every moment of the run judged as the monitor would: the first stall, if any. */
function firstStall(samples: Sample[]) {
  for (let end = 1; end <= samples.length; end++) {
    const stall = findStall(samples.slice(0, end), SETTINGS)
    if (stall) return { at: samples[end - 1]!.at / 1000, ...stall }
  }
  return undefined
}

describe('findStall', () => {
  it('calls a trickle a stall once it has lasted the window', () => {
    expect(firstStall(series(repeat(40, [50, 0.02])))).toEqual({ at: 30, bytes: 1500 })
  })

  it('leaves a steady download above the floor alone, however long', () => {
    expect(firstStall(series(repeat(600, [600, 0.01])))).toBeUndefined()
  })

  it('leaves alone a link-limited download with silent seconds (16 kbit/s measured: 0-7240 B a second)', () => {
    const measured = [1448, 0, 0, 0, 4344, 0, 1448, 1448, 0, 0, 1448, 5792, 0, 2896, 2896, 1448, 0, 0, 0, 1448, 7240, 0, 1448]
    expect(firstStall(series([...measured, ...measured, ...measured].map(bytes => [bytes, 0.01])))).toBeUndefined()
  })

  it('does not call silence a stall: a build that sleeps, a tool waiting for its read timeout', () => {
    expect(firstStall(series(repeat(120, [0, 0])))).toBeUndefined()
  })

  it('does not call the tail of a finished download a stall while the tool goes on without network', () => {
    expect(firstStall(series([...repeat(5, [0, 0.5]), [5000, 0.1], ...repeat(100, [0, 0])]))).toBeUndefined()
    expect(firstStall(series([...repeat(40, [0, 0]), [3000, 0.1], [200, 0], ...repeat(100, [0, 0])]))).toBeUndefined()
  })

  it('does not stop a tree that is busy computing while a connection trickles', () => {
    expect(firstStall(series(repeat(60, [50, 0.9])))).toBeUndefined()
  })

  it('counts a trickle whose tool also renders a progress bar (pip in a terminal: 6-8 % of a core, measured)', () => {
    expect(firstStall(series(repeat(40, [50, 0.08])))?.at).toBe(30)
  })

  it('waits for a whole window of history', () => {
    expect(firstStall(series(repeat(29, [50, 0])))).toBeUndefined()
  })

  it('needs data in every third of the window: bursts with long silences are the read timeout\'s', () => {
    const burst: [number, number][] = [[1000, 0], ...repeat(14, [0, 0] as [number, number])]
    expect(firstStall(series([...burst, ...burst, ...burst, ...burst]))).toBeUndefined()
  })

  it('does not call a tool\'s retries a stall: short transfers between its own delays, no request open in between (the relay counts them)', () => {
    // npm retrying a tarball every 8-9 s, each try a few kB: data in every third of a window, below the floor.
    const tries = Array.from({ length: 60 }, (_, second) => second % 9 === 0 ? [3000, 0.05] as [number, number] : [0, 0.01] as [number, number])
    const relayed = series(tries).map((sample, second) => ({ ...sample, counter: 'relay' as const, transferring: second % 9 === 1 }))
    expect(firstStall(series(tries))).toBeDefined()
    expect(firstStall(relayed)).toBeUndefined()
    // A trickle keeps its request open: still a stall.
    expect(firstStall(series(repeat(40, [50, 0.02])).map(sample => ({ ...sample, counter: 'relay' as const, transferring: true })))?.at).toBe(30)
  })

  it('is off with a floor of 0', () => {
    expect(findStall(series(repeat(40, [1, 0])), SETTINGS)).toBeDefined()
    expect(findStall(series(repeat(40, [1, 0])), { ...SETTINGS, minBytesPerSecond: 0 })).toBeUndefined()
  })
})

describe('formatBytes', () => {
  it.each([[0, '0 B'], [999, '999 B'], [1500, '1.5 kB'], [52_000, '52 kB'], [3_400_000, '3.4 MB']])('%d → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text)
  })
})

/** A sampler that replays per-sample increments and moves a fake clock one second per sample. */
function scripted(steps: [number, number][], clock: { now: number }) {
  let counters: TreeCounters = { bytes: 0, cpuSeconds: 0, counter: 'tcp', connections: 1 }
  let index = 0
  return () => ({
    async sample() {
      if (index > 0) clock.now += 1000
      const [bytes, cpu] = steps[Math.min(index++, steps.length - 1)] ?? [0, 0]
      counters = { ...counters, bytes: counters.bytes + bytes, cpuSeconds: counters.cpuSeconds + cpu }
      return counters
    },
  })
}

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise(resolve => setTimeout(resolve, 5))
}

describe('watchProgress', () => {
  it('aborts a stalled attempt with the bytes, the window and the host, and reports live throughput', async () => {
    const clock = { now: 0 }
    const lines: string[] = []
    const watch = watchProgress({
      stall: { minBytesPerSecond: 500, windowSeconds: 4 }, host: 'pypi.example:8080', report: line => lines.push(line),
      reportEverySeconds: 2, intervalMs: 2, createSampler: scripted([[0, 0], ...repeat(20, [50, 0])], clock), now: () => clock.now,
    })
    watch.onSpawn(1234)
    await until(() => watch.abort.aborted)
    expect(watch.abort.reason).toBe('stalled: 200 bytes in 4 s from pypi.example:8080')
    expect(lines[0]).toBe('↓ 50 B/s over the last 2 s (100 B in 2 s) from pypi.example:8080')
    expect(watch.stop()).toEqual({ bytes: 200, seconds: 4, bytesPerSecond: 50, counter: 'tcp', connections: 1 })
  })

  it('never aborts a steady download, and sums it up when stopped', async () => {
    const clock = { now: 0 }
    const watch = watchProgress({ stall: { minBytesPerSecond: 500, windowSeconds: 3 }, host: 'h', intervalMs: 1, createSampler: scripted([[0, 0], ...repeat(30, [2000, 0])], clock), now: () => clock.now })
    watch.onSpawn(1)
    await until(() => clock.now >= 20_000)
    expect(watch.abort.aborted).toBe(false)
    const summary = watch.stop()!
    expect(summary.bytesPerSecond).toBe(2000)
    expect(summary.bytes).toBe(summary.seconds * 2000)
  })

  it('tells how long a transfer has been open with nothing arriving, and nothing while none is open', async () => {
    const clock = { now: 0 }
    let transferring = true
    const steps = [[500, 0], ...repeat(30, [0, 0])] as [number, number][]
    let index = 0
    let bytes = 0
    const createSampler = () => ({
      async sample(): Promise<TreeCounters> {
        if (index > 0) clock.now += 1000
        bytes += steps[Math.min(index++, steps.length - 1)]![0]
        return { bytes, cpuSeconds: 0, counter: 'relay', connections: 1, transferring }
      },
    })
    const watch = watchProgress({ stall: { minBytesPerSecond: 0, windowSeconds: 30 }, host: 'h', intervalMs: 1, createSampler, now: () => clock.now })
    watch.onSpawn(1)
    await until(() => clock.now >= 16_000)
    expect(watch.silentFor()).toBeGreaterThanOrEqual(15_000)
    transferring = false
    const at = clock.now
    await until(() => clock.now >= at + 2000)
    expect(watch.silentFor()).toBeLessThanOrEqual(1000)
    watch.stop()
  })

  it('measures nothing and never aborts where the tree cannot be sampled', () => {
    const watch = watchProgress({ stall: SETTINGS, host: 'h', createSampler: undefined })
    watch.onSpawn(1)
    expect(watch.stop()).toBeUndefined()
    expect(watch.abort.aborted).toBe(false)
  })

  it('takes a connection the tool opened before the first look for one it opened, not one it inherited (bun starts in milliseconds)', () => {
    const sampler = () => ({
      async sample(): Promise<TreeCounters> {
        return { bytes: 0, cpuSeconds: 0, counter: 'tcp', connections: 1 }
      },
      openSockets: () => [1, 2, 42],
    })
    const watch = watchProgress({ stall: SETTINGS, host: 'h', createSampler: sampler, ownSockets: () => [1, 2], now: () => 5000 })
    watch.onSpawn(1)
    expect(watch.activity().connectedAt).toBe(5000)
    watch.stop()
    const inheritedOnly = watchProgress({ stall: SETTINGS, host: 'h', createSampler: () => ({ ...sampler(), openSockets: () => [1, 2] }), ownSockets: () => [1, 2], now: () => 5000 })
    inheritedOnly.onSpawn(1)
    expect(inheritedOnly.activity().connectedAt).toBeUndefined()
    inheritedOnly.stop()
  })

  describe('a connection shorter than a second (pip from a fast index)', () => {
    afterEach(() => vi.useRealTimers())

    /**
     * 2.5 s of a tree that holds its stdio sockets (1, 2) throughout, and a connection (42) from `opens` to `closes`
     * (ms) on which it receives 1 MB in the connection's last 100 ms: the summary, and how many samples were taken.
     */
    async function watchConnection(opens: number, closes: number) {
      vi.useFakeTimers()
      const started = Date.now()
      const at = () => Date.now() - started
      let seen = 0
      let samples = 0
      const sampler = () => ({
        async sample(): Promise<TreeCounters> {
          samples++
          if (at() >= closes - 100 && at() < closes) seen = 1_000_000
          return { bytes: seen, cpuSeconds: 0, counter: 'tcp', connections: seen ? 1 : 0 }
        },
        openSockets: () => (at() >= opens && at() < closes ? [1, 2, 42] : [1, 2]),
      })
      // The stdio sockets are resilient's own, passed on: inherited, not connections.
      const watch = watchProgress({ stall: SETTINGS, host: 'h', createSampler: sampler, ownSockets: () => [1, 2] })
      watch.onSpawn(1)
      await vi.advanceTimersByTimeAsync(2500)
      return { summary: watch.stop(), samples }
    }

    it('samples it while it is open, where one sample a second would see none of it', async () => {
      expect((await watchConnection(1200, 1500)).summary).toMatchObject({ bytes: 1_000_000, connections: 1 })
    })

    it('says that it saw no connection when none was open at a look', async () => {
      expect((await watchConnection(1210, 1250)).summary).toMatchObject({ bytes: 0, connections: 0 })
    })

    it('samples once a second when no connection opens: the inherited stdio sockets are not connections', async () => {
      expect((await watchConnection(9000, 9500)).samples).toBe(3)
    })
  })
})
