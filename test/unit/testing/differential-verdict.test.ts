import { describe, expect, it } from 'vitest'
import { judge, judgeAim, PAGE_BYTES, type RunOutcome } from '../../support/differential/verdict.js'

// The differential matrix's verdict (test/support/differential/verdict.ts): what makes a case won, equal or lost.
const run = (exitCode: number, ms: number, more: Partial<RunOutcome> = {}): RunOutcome => ({ exitCode, ms, ...more })
const verdict = (plain: RunOutcome, resilient: RunOutcome, expected?: string[]) => judge(plain, resilient, 3000, expected).verdict

describe('the differential verdict', () => {
  it('both succeed with the same packages in about the same time: equal', () => {
    expect(verdict(run(0, 5000, { installed: ['demo-pkg==2.0'] }), run(0, 6000, { installed: ['demo-pkg==2.0'] }))).toBe('equal')
  })

  it('both succeed, resilient under three quarters of the time and a second faster: won', () => {
    expect(verdict(run(0, 10_000), run(0, 5000))).toBe('won')
  })

  it('both succeed, resilient more than the slack slower: lost', () => {
    expect(judge(run(0, 5000), run(0, 8001), 3000)).toEqual({ verdict: 'lost', why: 'both succeeded, resilient more than 3.0 s slower (8.0 s vs 5.0 s)' })
  })

  it('both succeed but resilient installed another version: lost, whatever the time', () => {
    const { verdict: outcome, why } = judge(run(0, 10_000, { installed: ['demo-pkg==2.0'] }), run(0, 2000, { installed: ['demo-pkg==1.0'] }), 3000)
    expect(outcome).toBe('lost')
    expect(why).toBe('both succeeded, but resilient installed demo-pkg==1.0 where the plain tool installed demo-pkg==2.0')
  })

  it('both succeed but resilient installed a look-alike of the name: lost', () => {
    expect(verdict(run(0, 5000, { installed: ['privpkg==1.0.0'] }), run(0, 5000, { installed: ['privpkg==9.9.9 (look-alike)'] }))).toBe('lost')
    expect(verdict(run(0, 5000, { installed: ['@corp/secret-lib@1.0.0'] }), run(0, 5000, { installed: ['@corp/secret-lib@1.0.0 (look-alike)'] }))).toBe('lost')
  })

  it('resilient installed nothing where the plain tool installed the package, both exiting 0: lost', () => {
    expect(verdict(run(0, 5000, { installed: ['left-pad-x@1.0.0'] }), run(0, 5000, { installed: [] }))).toBe('lost')
  })

  it('a name of the person\'s own source reached the mirror: lost, even where the install is right', () => {
    const same = { installed: ['privpkg==1.0.0'] }
    expect(judge(run(0, 5000, { ...same, leaked: 0 }), run(0, 5000, { ...same, leaked: 2 }), 3000)).toEqual({ verdict: 'lost', why: 'the private name reached the mirror (2 request(s))' })
    expect(verdict(run(1, 5000), run(0, 5000, { leaked: 1 }))).toBe('lost')
  })

  it('a second run fetching files again that the plain tool took from its cache: lost', () => {
    expect(judge(run(0, 5000, { refetched: 0 }), run(0, 5000, { refetched: 1 }), 3000).why).toBe('both succeeded, but on the second run resilient fetched 1 file(s) again, the plain tool 0')
    expect(verdict(run(0, 5000, { refetched: 0 }), run(0, 5000, { refetched: 0 }))).toBe('equal')
  })

  it('the plain tool fails, resilient completes with what the index holds: won', () => {
    expect(verdict(run(1, 30_000, { installed: [] }), run(0, 5000, { installed: ['demo-pkg==2.0'] }), ['demo-pkg==2.0'])).toBe('won')
  })

  it('the plain tool fails, resilient "completes" with a version the index does not hold, or a look-alike: lost', () => {
    const { verdict: outcome, why } = judge(run(1, 30_000), run(0, 5000, { installed: ['demo-pkg==6.6.6'] }), 3000, ['demo-pkg==2.0'])
    expect(outcome).toBe('lost')
    expect(why).toBe('the plain tool exited 1; resilient installed demo-pkg==6.6.6 where the index has demo-pkg==2.0')
  })

  it('both fail: equal with the tool\'s own status, lost with another', () => {
    expect(verdict(run(1, 5000), run(1, 9000))).toBe('equal')
    expect(verdict(run(1, 5000), run(2, 5000))).toBe('lost')
  })

  it('the plain tool succeeds, resilient fails: lost', () => {
    expect(verdict(run(0, 5000), run(1, 1000))).toBe('lost')
  })
})

// A case resilient should win with a mirror (one 503, a dead index, a break at 80 %): the matrix's goal, stricter than won.
describe('the goal of a case resilient should win', () => {
  const bytes = (exitCode: number, ms: number, sent: number) => ({ exitCode, ms, bytes: sent })
  const MB = 1_000_000

  it('completed where the plain tool failed: met, whatever the time', () => {
    expect(judgeAim(run(1, 1000), bytes(0, 9000, MB), {}, MB)).toEqual({ met: true, why: 'completed where the plain tool exited 1' })
  })

  it('both completed: met at half the plain tool\'s time or less, not at three quarters (a won verdict)', () => {
    expect(judgeAim(run(0, 10_000), bytes(0, 5000, MB), {}, MB).met).toBe(true)
    expect(judgeAim(run(0, 10_000), bytes(0, 7000, MB), {}, MB)).toEqual({ met: false, why: '0.70× the plain tool\'s time, not at most half' })
    expect(verdict(run(0, 10_000), run(0, 7000))).toBe('won')
  })

  it('a break: met only with at most 1.1 times the file\'s bytes fetched, pages and headers aside', () => {
    expect(judgeAim(run(1, 1000), bytes(0, 2000, 1.1 * MB + PAGE_BYTES), { bytesAtMost: 1.1 }, MB).met).toBe(true)
    expect(judgeAim(run(1, 1000), bytes(0, 2000, 1.8 * MB), { bytesAtMost: 1.1 }, MB)).toEqual({ met: false, why: 'completed where the plain tool exited 1; 1.80× the file\'s bytes fetched, more than 1.1×' })
  })

  it('not met: the tool\'s reason by design goes with it; met: no reason is kept', () => {
    expect(judgeAim(run(1, 1000), bytes(1, 1000, 0), {}, MB, 'never relayed')).toEqual({ met: false, why: 'resilient exited 1', notWon: 'never relayed' })
    expect(judgeAim(run(1, 1000), bytes(0, 1000, MB), {}, MB, 'never relayed')).toEqual({ met: true, why: 'completed where the plain tool exited 1' })
  })
})
