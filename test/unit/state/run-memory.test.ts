import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Diagnosis } from '../../../src/diagnose/types.js'
import type { AttemptRecord, RunResult, Source, SourcePlan } from '../../../src/retry/types.js'
import { RunMemory } from '../../../src/state/run-memory.js'

const network = { key: 'net', label: 'test network' }
const upstream: Source = { id: 'upstream', url: undefined, indexUrl: 'https://pypi.org/simple', kind: 'upstream', label: 'pypi.org' }
const mirror = (id: string): Source => ({ id, url: `https://${id}.test/simple`, indexUrl: `https://${id}.test/simple`, kind: 'mirror', label: `mirror ${id}` })
const plan = (): SourcePlan => ({ primary: upstream, fallbacks: [mirror('tuna'), mirror('aliyun')] })
const diagnosis = (category: Diagnosis['category']): Diagnosis => ({ category, ruleId: 'test', summary: category, evidence: [], facts: {}, remedy: { kind: 'switch-mirror' }, retryable: true })
const attempt = (number: number, source: Source, failure?: Diagnosis['category']): AttemptRecord =>
  ({ number, source, command: { argv: [], env: {} }, exitCode: failure ? 1 : 0, durationMs: 5, diagnosis: failure ? diagnosis(failure) : null })

function open(env: NodeJS.ProcessEnv, now = () => 1_000_000) {
  const said = { notes: [] as string[], verbose: [] as string[], warnings: [] as string[] }
  return RunMemory.open({ env, breaker: { failureThreshold: 2, cooldownSeconds: 60 }, tool: 'pip', network, now,
    note: m => said.notes.push(m), verbose: m => said.verbose.push(m), warn: m => said.warnings.push(m) }).then(memory => ({ memory, said }))
}

/** One run through the memory: arrange, the attempts in order, finish. */
async function run(env: NodeJS.ProcessEnv, attempts: [string, Diagnosis['category']?][], now?: () => number) {
  const { memory, said } = await open(env, now)
  const arranged = memory.arrange(plan())
  const sources: Record<string, Source> = { upstream, tuna: mirror('tuna'), aliyun: mirror('aliyun') }
  const records = attempts.map(([id, failure], i) => attempt(i + 1, sources[id]!, failure))
  for (const record of records) memory.onAttempt(record, arranged)
  const result: RunResult = { outcome: records.at(-1)!.diagnosis ? 'gave-up' : 'succeeded', exitCode: 0, durationMs: 1, attempts: records }
  await memory.finish(result)
  return { arranged, said }
}

describe('RunMemory', () => {
  const env = () => ({ RESILIENT_STATE_DIR: mkdtempSync(join(tmpdir(), 'resilient-memory-')) })

  it('skips a source after breaker.failureThreshold failed runs, without listing it in the plan', async () => {
    const state = env()
    await run(state, [['upstream', 'timeout'], ['tuna', 'timeout'], ['aliyun', 'timeout']])
    await run(state, [['upstream', 'timeout'], ['tuna', 'timeout'], ['aliyun']])
    const { arranged, said } = await run(state, [['aliyun']])
    expect([arranged.primary.id, ...arranged.fallbacks.map(source => source.id)]).toEqual(['aliyun'])
    expect(said.notes[0]).toMatch(/^skipping pypi\.org, tuna: failing from this network \(test network\); tried again after /)
  })

  it('lets a source through again after the cooldown', async () => {
    const state = env()
    await run(state, [['upstream', 'timeout'], ['tuna']])
    await run(state, [['upstream', 'timeout'], ['tuna']])
    const later = await run(state, [['upstream']], () => 1_000_000 + 61_000)
    expect(later.arranged.primary.id).toBe('upstream')
  })

  it('does not count a missing package against the index', async () => {
    const state = env()
    for (let i = 0; i < 3; i++) await run(state, [['upstream', 'package_not_found']])
    expect((await run(state, [['upstream']])).arranged.primary.id).toBe('upstream')
  })

  it('remembers what fixed what and tries it first next time, saying so', async () => {
    const state = env()
    await run(state, [['upstream', 'timeout'], ['tuna', 'server_error'], ['aliyun']])
    const { arranged, said } = await run(state, [['upstream']])
    expect(arranged.fallbacks.map(source => source.id)).toEqual(['aliyun', 'tuna'])
    expect(said.verbose).toContain('aliyun fixed this last time (timeout on pypi.org): trying it first')
  })

  it('after a failure, prefers what fixed that same failure before', async () => {
    const state = env()
    await run(state, [['tuna', 'ssl'], ['aliyun']])
    const { memory, said } = await open(state)
    const arranged = memory.arrange(plan())
    memory.onAttempt(attempt(1, upstream, 'timeout'), arranged)
    memory.onAttempt(attempt(2, mirror('tuna'), 'ssl'), arranged)
    await memory.finish({ outcome: 'gave-up', exitCode: 1, durationMs: 1, attempts: [] })
    expect(said.verbose).toContain('aliyun fixed this last time (ssl on tuna.test): trying it next')
  })

  it('says a one-time notice once, across processes', async () => {
    const state = env()
    expect(await (await open(state)).memory.firstTime('notice')).toBe(true)
    expect(await (await open(state)).memory.firstTime('notice')).toBe(false)
  })
})
