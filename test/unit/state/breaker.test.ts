import { describe, expect, it } from 'vitest'
import { breakerVerdict, countsAgainstSource, describeHealth, withOutcome } from '../../../src/state/breaker.js'
import type { MirrorHealth } from '../../../src/state/schema.js'

const settings = { failureThreshold: 3, cooldownSeconds: 300 }
const URL_ = 'https://mirror.test/simple'
const fail = (health: MirrorHealth | undefined, at: number) => withOutcome(health, URL_, { at, ok: false, category: 'timeout', via: 'run' })
const succeed = (health: MirrorHealth | undefined, at: number) => withOutcome(health, URL_, { at, ok: true, via: 'run' })

describe('circuit breaker', () => {
  it('stays closed below the threshold', () => {
    const health = fail(fail(undefined, 1000), 2000)
    expect(breakerVerdict(health, 2001, settings)).toEqual({ state: 'closed' })
    expect(breakerVerdict(undefined, 0, settings)).toEqual({ state: 'closed' })
  })

  it('opens at the threshold until the cooldown after the last failure ends', () => {
    const health = fail(fail(fail(undefined, 1000), 2000), 3000)
    expect(breakerVerdict(health, 3000 + 299_999, settings)).toEqual({ state: 'open', reopensAt: 303_000 })
    expect(breakerVerdict(health, 303_000, settings)).toEqual({ state: 'half-open' })
  })

  it('reopens after one failure on trial, and closes after a success', () => {
    const open = fail(fail(fail(undefined, 1), 2), 3)
    const retried = fail(open, 400_000)
    expect(breakerVerdict(retried, 400_001, settings).state).toBe('open')
    const recovered = succeed(open, 400_000)
    expect(breakerVerdict(recovered, 400_001, settings).state).toBe('closed')
    expect(recovered.consecutiveFailures).toBe(0)
  })

  it('applies a changed threshold at once (the verdict is derived, not stored)', () => {
    const health = fail(fail(undefined, 1), 2)
    expect(breakerVerdict(health, 3, { ...settings, failureThreshold: 2 }).state).toBe('open')
    expect(breakerVerdict(health, 3, { ...settings, failureThreshold: 5 }).state).toBe('closed')
  })

  it('keeps totals and only the recent outcomes', () => {
    let health: MirrorHealth | undefined
    for (let i = 0; i < 25; i++) health = i % 2 ? succeed(health, i) : fail(health, i)
    expect(health!.recent).toHaveLength(10)
    expect(health!.successes + health!.failures).toBe(25)
    expect(health!.recent.at(-1)!.at).toBe(24)
  })

  it('counts failures of the index, not of the package, the proxy or the build', () => {
    for (const category of ['timeout', 'connection', 'dns', 'server_error', 'hash_mismatch', 'rate_limited']) expect(countsAgainstSource(category), category).toBe(true)
    for (const category of ['package_not_found', 'proxy', 'build_failure', 'disk_full', 'permission']) expect(countsAgainstSource(category), category).toBe(false)
  })

  it('describes health in words', () => {
    expect(describeHealth(undefined, 0, settings)).toBe('no data yet')
    const open = fail(fail(fail(undefined, 1), 2), 3)
    expect(describeHealth(open, 4, settings)).toMatch(/^tried last until \d\d:\d\d \(3 failures in a row: timeout\)$/)
    expect(describeHealth(succeed(undefined, 1), 2, settings)).toBe('ok (1 of 1 recent ok)')
    expect(describeHealth(fail(undefined, 1), 2, settings)).toBe('failing (0 of 1 recent ok; last failure: timeout)')
    expect(describeHealth(fail(succeed(undefined, 1), 2), 3, settings)).toBe('mixed (1 of 2 recent ok; last failure: timeout)')
  })
})
