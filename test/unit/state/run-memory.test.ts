import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Category } from '../../../src/diagnose/types.js'
import { rankSources } from '../../../src/plan/rank.js'
import type { PlannedAttempt } from '../../../src/plan/types.js'
import { RunMemory } from '../../../src/state/run-memory.js'
import { diagnosisOf, planOf } from '../retry/harness.js'

const network = { key: 'net', label: 'test network' }
const plan = () => planOf('pip', 'install torch', { pypi: { mirrors: ['https://tuna.test/simple', 'https://aliyun.test/simple'] } })
const byId = (id: string) => plan().attempts.find(attempt => attempt.source.id === id)!

function open(env: NodeJS.ProcessEnv, now = () => 1_000_000) {
  const said = { verbose: [] as string[], warnings: [] as string[] }
  return RunMemory.open({ env, breaker: { failureThreshold: 2, cooldownSeconds: 60 }, tool: 'pip', network, now,
    verbose: m => said.verbose.push(m), warn: m => said.warnings.push(m) }).then(memory => ({ memory, said }))
}

/** One run: each attempt booked against its planned hosts, in order (the last one succeeds unless it names a failure). */
async function run(env: NodeJS.ProcessEnv, attempts: [string, Category?][], now?: () => number) {
  const { memory } = await open(env, now)
  for (const [id, failure] of attempts) {
    const attempt: PlannedAttempt = byId(id)
    memory.book({ ok: !failure, diagnosis: failure ? diagnosisOf(failure) : null, source: attempt.source }, attempt.hosts)
  }
  await memory.finish()
}

async function ranked(env: NodeJS.ProcessEnv, now?: () => number) {
  const { memory } = await open(env, now)
  return rankSources(plan(), memory.snapshot())
}
const ids = (attempts: readonly PlannedAttempt[]) => attempts.map(attempt => attempt.source.id)

describe('RunMemory', () => {
  const env = () => ({ RESILIENT_STATE_DIR: mkdtempSync(join(tmpdir(), 'resilient-memory-')) })

  it('moves a source whose breaker is open last, never out of the plan', async () => {
    const state = env()
    await run(state, [['upstream', 'timeout'], ['tuna.test', 'timeout'], ['aliyun.test', 'timeout']])
    await run(state, [['upstream', 'timeout'], ['tuna.test', 'timeout'], ['aliyun.test']])
    const { plan: arranged, note } = await ranked(state)
    expect(ids(arranged.attempts)).toEqual(['aliyun.test', 'upstream', 'tuna.test'])
    // aliyun fixed pypi.org's timeout, and it is attempt 1 now: said so.
    expect(note).toBe('pypi.org, tuna.test: failing from this network (test network), so tried last; aliyun.test fixed this last time (timeout on pypi.org): trying it first')
    expect(arranged.attempts[1]!.reason).toMatch(/^failing from this network \(2 failures in a row, last at \d\d:\d\d\): tried last$/)
  })

  it('lets a source through again after the cooldown', async () => {
    const state = env()
    await run(state, [['upstream', 'timeout'], ['tuna.test']])
    await run(state, [['upstream', 'timeout'], ['tuna.test']])
    expect(ids((await ranked(state, () => 1_000_000 + 61_000)).plan.attempts)[0]).toBe('upstream')
  })

  it('does not count a missing package against the index', async () => {
    const state = env()
    for (let i = 0; i < 3; i++) await run(state, [['upstream', 'package_not_found']])
    expect(ids((await ranked(state)).plan.attempts)[0]).toBe('upstream')
  })

  it('remembers what fixed what: first among the mirrors, said only in --verbose since attempt 1 stays the index', async () => {
    const state = env()
    await run(state, [['upstream', 'timeout'], ['tuna.test', 'server_error'], ['aliyun.test']])
    const { plan: arranged, note, verbose } = await ranked(state)
    expect(ids(arranged.attempts)).toEqual(['upstream', 'aliyun.test', 'tuna.test'])
    expect(note).toBeUndefined()
    expect(verbose).toBe('aliyun.test fixed this last time (timeout on pypi.org): it comes right after pypi.org')
    expect(arranged.learned.map(fix => `${fix.category} ${fix.failingHost} ${fix.sourceId}`)).toEqual(['timeout pypi.org aliyun.test', 'server_error tuna.test aliyun.test'])
  })

  it('books a failure only against the host it is about', async () => {
    const state = env()
    const { memory } = await open(state)
    const attempt = byId('tuna.test')
    // A failure naming a host the attempt did not contact (a proxy, a CDN): nothing is booked.
    expect(memory.book({ ok: false, diagnosis: diagnosisOf('timeout', { host: 'cdn.elsewhere.test' }), source: attempt.source }, attempt.hosts)).toEqual([])
    expect(memory.book({ ok: false, diagnosis: diagnosisOf('timeout', { host: 'tuna.test' }), source: attempt.source }, attempt.hosts)).toEqual([{ key: 'https://tuna.test/simple', host: 'tuna.test', ok: false, category: 'timeout' }])
    await memory.finish()
    const written = JSON.parse(readFileSync(join(state.RESILIENT_STATE_DIR, 'state.json'), 'utf8'))
    expect(Object.keys(written.networks.net.mirrors)).toEqual(['https://tuna.test/simple'])
  })

  it('says a one-time notice once, across processes', async () => {
    const state = env()
    expect(await (await open(state)).memory.firstTime('notice')).toBe(true)
    expect(await (await open(state)).memory.firstTime('notice')).toBe(false)
  })
})
