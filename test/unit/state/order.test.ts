import { describe, expect, it } from 'vitest'
import type { BreakerVerdict } from '../../../src/state/breaker.js'
import { arrangePlan, preferLearnedFix, type OrderContext } from '../../../src/state/order.js'
import type { LearnedFix } from '../../../src/state/schema.js'
import type { AttemptRecord, Source, SourcePlan } from '../../../src/retry/types.js'

const mirror = (id: string): Source => ({ id, url: `https://${id}.test/simple`, indexUrl: `https://${id}.test/simple`, kind: 'mirror', label: `mirror ${id}` })
const upstream: Source = { id: 'upstream', url: undefined, indexUrl: 'https://pypi.org/simple', kind: 'upstream', label: 'pypi.org' }
const plan = (...ids: string[]): SourcePlan => ({ primary: upstream, fallbacks: ids.map(mirror) })
const fix = (id: string, category = 'timeout'): LearnedFix => ({ tool: 'pip', category, failingHost: 'pypi.org', url: `https://${id}.test/simple`, sourceId: id, remedy: 'switch-mirror', at: 1, count: 1 })

function context(states: Record<string, BreakerVerdict['state']>, extra: Partial<OrderContext> = {}): OrderContext {
  const idOf = (source: Source) => source.id === 'upstream' ? 'upstream' : source.id
  return {
    verdictOf: source => {
      const state = states[idOf(source)] ?? 'closed'
      return state === 'open' ? { state, reopensAt: 99 } : { state } as BreakerVerdict
    },
    consecutiveFailuresOf: () => 0,
    learned: [],
    isPinned: () => false,
    ...extra,
  }
}
const ids = (p: SourcePlan) => [p.primary.id, ...p.fallbacks.map(source => source.id)]

describe('arrangePlan', () => {
  it('keeps the configured order when nothing is known', () => {
    expect(ids(arrangePlan(plan('a', 'b', 'c'), context({})).plan)).toEqual(['upstream', 'a', 'b', 'c'])
  })

  it('leaves out mirrors whose breaker is open, and says which', () => {
    const arranged = arrangePlan(plan('a', 'b', 'c'), context({ b: 'open' }))
    expect(ids(arranged.plan)).toEqual(['upstream', 'a', 'c'])
    expect(arranged.skipped.map(entry => entry.source.id)).toEqual(['b'])
  })

  it('tries mirrors on trial (half-open) after healthy ones, and fewer failures first', () => {
    const failures: Record<string, number> = { a: 2, b: 0, c: 1 }
    const arranged = arrangePlan(plan('a', 'b', 'c', 'd'), context({ d: 'half-open' }, { consecutiveFailuresOf: source => failures[source.id] ?? 0 }))
    expect(ids(arranged.plan)).toEqual(['upstream', 'b', 'c', 'a', 'd'])
  })

  it('puts what fixed this host last time first', () => {
    const arranged = arrangePlan(plan('a', 'b', 'c'), context({}, { learned: [fix('c')] }))
    expect(ids(arranged.plan)).toEqual(['upstream', 'c', 'a', 'b'])
    expect(arranged.learned?.fix.sourceId).toBe('c')
  })

  it('ignores a learned fix whose mirror is open now', () => {
    const arranged = arrangePlan(plan('a', 'b', 'c'), context({ c: 'open' }, { learned: [fix('c')] }))
    expect(ids(arranged.plan)).toEqual(['upstream', 'a', 'b'])
    expect(arranged.learned).toBeUndefined()
  })

  it('never skips or reorders mirrors named with --mirror', () => {
    const arranged = arrangePlan(plan('a', 'b', 'c'), context({ b: 'open' }, { isPinned: source => source.id === 'b', learned: [fix('c')] }))
    expect(ids(arranged.plan)).toEqual(['upstream', 'b', 'c', 'a'])
  })

  it('skips a replaceable primary whose breaker is open: the first mirror becomes the first attempt', () => {
    const arranged = arrangePlan(plan('a', 'b'), context({ upstream: 'open' }))
    expect(ids(arranged.plan)).toEqual(['a', 'b'])
    expect(arranged.skipped.map(entry => entry.source.id)).toEqual(['upstream'])
  })

  it('keeps the primary when every mirror is open, so a run still makes an attempt', () => {
    const arranged = arrangePlan(plan('a'), context({ upstream: 'open', a: 'open' }))
    expect(ids(arranged.plan)).toEqual(['upstream'])
  })

  it('never replaces a private index, open or not', () => {
    const privatePlan: SourcePlan = { primary: { id: 'primary', url: undefined, indexUrl: 'https://corp.test/simple', kind: 'private', label: 'corp' }, fallbacks: [] }
    expect(ids(arrangePlan(privatePlan, context({ primary: 'open' })).plan)).toEqual(['primary'])
  })
})

describe('preferLearnedFix', () => {
  const attempt = (source: Source): AttemptRecord => ({ number: 1, source, command: { argv: [], env: {} }, exitCode: 1, durationMs: 1, diagnosis: null })

  it('moves the mirror that fixed this failure before to the front of the untried ones, in place', () => {
    const arranged = plan('a', 'b', 'c')
    const moved = preferLearnedFix(arranged, [attempt(upstream), attempt(mirror('a'))], [fix('c')])
    expect(moved?.source.id).toBe('c')
    expect(arranged.fallbacks.map(source => source.id)).toEqual(['a', 'c', 'b'])
  })

  it('does nothing when the fix was already tried or is not in the plan', () => {
    const arranged = plan('a', 'b')
    expect(preferLearnedFix(arranged, [attempt(upstream), attempt(mirror('b'))], [fix('b'), fix('z')])).toBeUndefined()
    expect(arranged.fallbacks.map(source => source.id)).toEqual(['a', 'b'])
  })
})
