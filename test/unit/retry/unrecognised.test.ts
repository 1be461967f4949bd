import { describe, expect, it } from 'vitest'
import { configSchema } from '../../../src/config/schema.js'
import { diagnose } from '../../../src/diagnose/index.js'
import { decideNext } from '../../../src/retry/policy.js'
import type { AttemptRecord, Source, SourcePlan } from '../../../src/retry/types.js'

// Decision first (issue 13): a failure no rule explains still gets the right retry decision.
const primary: Source = { id: 'upstream', url: undefined, indexUrl: 'https://pypi.org/simple', kind: 'upstream', label: 'pypi.org' }
const mirror: Source = { id: 'mirror-a', url: 'https://mirror-a.test/simple', kind: 'mirror', label: 'mirror mirror-a' }
const config = configSchema.parse({})
const NETWORK = 'ERROR: Failed to fetch https://pypi.org/simple/torch/: the server said something new\n'
const LOCAL = 'Traceback (most recent call last):\nKeyError: torch\n'

function attempt(number: number, source: Source, output: string): AttemptRecord {
  return { number, source, command: { argv: ['pip'], env: {} }, exitCode: 1, durationMs: 10, diagnosis: diagnose({ tool: 'pip', output }) }
}

function decide(attempts: AttemptRecord[], plan: SourcePlan) {
  const last = attempts.at(-1)!
  return decideNext({ diagnosis: last.diagnosis!, source: last.source, plan, attempts, config, elapsedMs: 0, random: () => 0.5 })
}

describe('an unrecognised failure', () => {
  it('with network evidence gets one try on another source', () => {
    const first = attempt(1, primary, NETWORK)
    expect(first.diagnosis).toMatchObject({ category: 'other', ruleId: 'unclassified-network', retryable: true, remedy: { kind: 'switch-mirror', once: true } })
    expect(decide([first], { primary, fallbacks: [mirror] })).toMatchObject({ action: 'attempt', source: { id: 'mirror-a' } })
  })
  it('with network evidence is not tried a third time, nor on the same source when there is no other', () => {
    const attempts = [attempt(1, primary, NETWORK), attempt(2, mirror, NETWORK)]
    expect(decide(attempts, { primary, fallbacks: [mirror, { ...mirror, id: 'mirror-b' }] }).action).toBe('stop')
    expect(decide([attempt(1, primary, NETWORK)], { primary, fallbacks: [] }).action).toBe('stop')
  })
  it('without network evidence is never retried on a mirror', () => {
    const first = attempt(1, primary, LOCAL)
    expect(first.diagnosis).toMatchObject({ ruleId: 'unclassified', retryable: false })
    expect(decide([first], { primary, fallbacks: [mirror] }).action).toBe('stop')
  })
  it('a local cause beside a failed download keeps it local (a cache error, os error 2)', () => {
    const output = '  × failed to download pypi mapping from https://example.test/mapping.json\n  ╰─▶ No such file or directory (os error 2)\n'
    expect(diagnose({ tool: 'pixi', output }).retryable).toBe(false)
  })
})
