import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { backoffMs } from '../../../src/retry/backoff.js'

describe('backoffMs: exponential backoff with equal jitter', () => {
  it('waits between half the ceiling and the ceiling, the ceiling doubling from 1 s up to the cap', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 120_000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (tries, capMs, draw) => {
      const ceiling = Math.min(capMs, 1000 * 2 ** Math.max(0, tries - 1))
      const wait = backoffMs(tries, capMs, () => draw)
      expect(wait).toBeGreaterThanOrEqual(Math.floor(ceiling / 2))
      expect(wait).toBeLessThanOrEqual(ceiling)
    }))
  })

  it('never waits less than half: not full jitter, whose lowest draw is 0', () => {
    expect(backoffMs(1, 30_000, () => 0)).toBe(500)
    expect(backoffMs(3, 30_000, () => 0)).toBe(2000)
    expect(backoffMs(3, 30_000, () => 0.999999)).toBe(4000)
    expect(backoffMs(20, 30_000, () => 0)).toBe(15_000)
  })
})
