import { describe, expect, it } from 'vitest'
import { mayMatch, withinLine } from '../../../src/diagnose/line-pattern.js'
import { expectLinearTime } from '../../helpers/linear-time.js'

describe('withinLine', () => {
  it('keeps \\s off newlines', () => expect(new RegExp(withinLine(/a\s+b/.source)).test('a\nb')).toBe(false))
  it('keeps \\s inside a class off newlines', () => expect(new RegExp(withinLine(/a[\s,]+b/.source)).test('a\n,b')).toBe(false))
  it('keeps negated classes off newlines', () => expect(new RegExp(withinLine(/a[^x]+b/.source)).test('a\nb')).toBe(false))
  it('leaves escapes alone', () => expect(withinLine(/\[\\s\]/.source)).toBe(/\[\\s\]/.source))
  it('still matches within a line', () => expect(new RegExp(withinLine(/a[\s,]+[^x]b/.source)).test('a , yb')).toBe(true))
})

describe('mayMatch', () => {
  it('anchors at line starts', () => expect(mayMatch('first\n  Got abc', /^\s*Got/)).toBe(true))
  it('never joins two lines', () => expect(mayMatch('Expected\nsha256', /Expected\s+sha256/)).toBe(false))
  it('stays linear on blank lines that ^\\s* could swallow', () => {
    const blankLines = (count: number) => `${'\n'.repeat(count)}x`
    const run = (input: string) => expect(mayMatch(input, /^\s*Got\s+[0-9a-f]{16}/)).toBe(false)
    // 16× the work: linear is 16, quadratic 256; the bound sits far from both (a loaded suite has measured 37 for 8×).
    expectLinearTime(run, { small: blankLines(37_500), big: blankLines(600_000), factor: 16, limit: 96 })
  })
})
