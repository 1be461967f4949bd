import { describe, expect, it } from 'vitest'
import { diagnose } from '../../../src/diagnose/index.js'
import { decideNext } from '../../../src/retry/policy.js'
import type { AttemptRecord, PlannedAttempt, RunPlan } from '../../../src/plan/types.js'
import { planOf } from './harness.js'

// Decision first: a failure no rule explains still gets the right retry decision.
const NETWORK = 'ERROR: Failed to fetch https://pypi.org/simple/torch/: the server said something new\n'
const LOCAL = 'Traceback (most recent call last):\nKeyError: torch\n'
const withMirrors = (...mirrors: string[]) => planOf('pip', 'install torch', { pypi: { mirrors } })

function attempt(number: number, planned: PlannedAttempt, output: string): AttemptRecord {
  return { number, source: planned.source, command: planned.command, hosts: planned.hosts, exitCode: 1, durationMs: 10, diagnosis: diagnose({ tool: 'pip', output }) }
}

function decide(plan: RunPlan, outputs: string[]) {
  const history = outputs.map((output, at) => attempt(at + 1, plan.attempts[at]!, output))
  const last = history.at(-1)!
  return decideNext({ diagnosis: last.diagnosis!, attempt: plan.attempts[history.length - 1]!, history, queue: plan.attempts.slice(history.length), plan, elapsedMs: 0, random: () => 0.5 })
}

describe('an unrecognised failure', () => {
  it('with network evidence gets one try on another source', () => {
    const plan = withMirrors('https://mirror-a.test/simple')
    expect(attempt(1, plan.attempts[0]!, NETWORK).diagnosis).toMatchObject({ category: 'other', ruleId: 'unclassified-network', retryable: true, remedy: { kind: 'switch-mirror', once: true } })
    expect(decide(plan, [NETWORK])).toMatchObject({ action: 'attempt', queue: [{ source: { id: 'mirror-a.test' } }] })
  })
  it('with network evidence is not tried a third time, nor on the same source when there is no other', () => {
    expect(decide(withMirrors('https://mirror-a.test/simple', 'https://mirror-b.test/simple'), [NETWORK, NETWORK]).action).toBe('stop')
    expect(decide(withMirrors(), [NETWORK]).action).toBe('stop')
  })
  it('without network evidence is never retried on a mirror', () => {
    const plan = withMirrors('https://mirror-a.test/simple')
    expect(attempt(1, plan.attempts[0]!, LOCAL).diagnosis).toMatchObject({ ruleId: 'unclassified', retryable: false })
    expect(decide(plan, [LOCAL]).action).toBe('stop')
  })
  it('a local cause beside a failed download keeps it local (a cache error, os error 2)', () => {
    const output = '  × failed to download pypi mapping from https://example.test/mapping.json\n  ╰─▶ No such file or directory (os error 2)\n'
    expect(diagnose({ tool: 'pixi', output }).retryable).toBe(false)
  })
})
