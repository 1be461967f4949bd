import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Category } from '../../../src/diagnose/types.js'
import { blamedHost } from '../../../src/plan/blame.js'
import { rankSources } from '../../../src/plan/rank.js'
import type { BreakerVerdict, Host, LearnedChoice, PlannedAttempt, RunPlan, StateSnapshot } from '../../../src/plan/types.js'
import { runAttempts } from '../../../src/retry/attempts-loop.js'
import { bookingsFor } from '../../../src/state/booking.js'
import type { LockedRegistries } from '../../../src/tools/types.js'
import { diagnosisOf, planOf } from '../retry/harness.js'

// Property tests: for any mix of sources (private index, configured index, catalog mirror, lockfile-pinned
// host), any remembered state and any sequence of outcomes, the rules of docs/plan.md hold.

const PRIVATE = 'https://pkgs.corp.test/npm/'
const COMPANY = 'https://npm.company.test/'
const PINS = [PRIVATE, COMPANY, 'https://registry.npmjs.org/', 'https://registry.npmmirror.com/']
// Weighted towards the failures a retry can fix: those are where the loop's choices are.
const categoryArb: fc.Arbitrary<Category | 'ok'> = fc.oneof(
  { arbitrary: fc.constantFrom<Category>('rate_limited', 'server_error'), weight: 4 },
  { arbitrary: fc.constantFrom<Category | 'ok'>('timeout', 'connection', 'lock_busy', 'hash_mismatch', 'ok'), weight: 4 },
  { arbitrary: fc.constantFrom<Category>('dns', 'http_auth', 'package_not_found', 'ssl', 'proxy', 'externally_managed', 'build_failure'), weight: 2 })

const worldArb = fc.record({
  userIndex: fc.constantFrom('none', 'private', 'company', 'catalog', 'upstream'),
  configIndex: fc.boolean(),
  mirrors: fc.subarray(['npmmirror', 'tencent', 'huawei', 'https://own-mirror.test/npm/']),
  preferred: fc.subarray(['tencent', 'https://picked.test/']),
  pins: fc.subarray(PINS),
  maxAttempts: fc.integer({ min: 1, max: 6 }),
  maxTotalSeconds: fc.integer({ min: 1, max: 300 }),
  maxWaitSeconds: fc.integer({ min: 0, max: 30 }),
})
type World = typeof worldArb extends fc.Arbitrary<infer T> ? T : never

const USER_INDEX: Record<World['userIndex'], string | undefined> = { none: undefined, private: PRIVATE, company: COMPANY, catalog: 'https://registry.npmmirror.com/', upstream: 'https://registry.npmjs.org/' }

function planFor(world: World): RunPlan {
  const url = USER_INDEX[world.userIndex]
  const locked: LockedRegistries | undefined = world.pins.length ? { file: '/project/package-lock.json', registries: world.pins.map((prefix, at) => ({ prefix, count: at + 1 })) } : undefined
  const config = { maxAttempts: world.maxAttempts, maxTotalSeconds: world.maxTotalSeconds, maxWaitSeconds: world.maxWaitSeconds,
    npm: { mirrors: world.mirrors, ...(world.configIndex && { index: COMPANY }) } }
  return planOf('npm', 'install left-pad', config, { userIndex: url ? { url, origin: '--registry' } : null, locked, preferredMirrors: world.preferred })
}

const stateArb = fc.record({
  verdicts: fc.dictionary(fc.constantFrom(...['https://registry.npmjs.org', 'https://registry.npmmirror.com', 'https://mirrors.cloud.tencent.com/npm', COMPANY.slice(0, -1), 'https://picked.test']),
    fc.record({ state: fc.constantFrom<BreakerVerdict['state']>('closed', 'open', 'half-open'), failures: fc.nat(9), lastFailureAt: fc.nat(1_000_000) })),
  learned: fc.array(fc.record({ category: fc.constantFrom('timeout', 'server_error'), failingHost: fc.constantFrom('registry.npmjs.org', 'npm.company.test'),
    key: fc.constantFrom('https://registry.npmmirror.com', 'https://own-mirror.test/npm'), sourceId: fc.constant('learned') }), { maxLength: 3 }),
})

type StateInput = { verdicts: Record<string, { state: BreakerVerdict['state']; failures: number; lastFailureAt: number }>; learned: LearnedChoice[] }

function snapshotOf(state: StateInput): StateSnapshot {
  return {
    healthOf: key => {
      const entry = state.verdicts[key]
      if (!entry) return { verdict: { state: 'closed' }, consecutiveFailures: 0 }
      const verdict: BreakerVerdict = entry.state === 'open' ? { state: 'open', reopensAt: entry.lastFailureAt + 300_000 } : { state: entry.state }
      return { verdict, consecutiveFailures: entry.failures, lastFailureAt: entry.lastFailureAt }
    },
    learned: state.learned,
    network: 'test network',
  }
}

const stepArb = fc.record({
  category: categoryArb,
  /** Which host the failure names: the attempt's index, a pinned registry, one it did not contact, or none. */
  names: fc.constantFrom('index', 'lockfile', 'elsewhere', 'none'),
  retryAfter: fc.option(fc.integer({ min: 1, max: 90 }), { nil: undefined }),
  ms: fc.integer({ min: 100, max: 8_000 }),
  interrupted: fc.integer({ min: 0, max: 9 }).map(draw => draw === 0),
})
type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never

function namedHost(step: Step, hosts: readonly Host[]): string | undefined {
  if (step.names === 'elsewhere') return 'cdn.elsewhere.test'
  return hosts.find(host => step.names === 'index' ? host.role === 'index' : host.role === 'lockfile')?.host
}

/** Runs `plan` against `steps` on a fake clock; records what ran, when, and what was booked against which hosts. */
async function play(plan: RunPlan, steps: Step[]) {
  const ran: { attempt: PlannedAttempt; at: number; step: Step }[] = []
  const sleeps: { from: number; ms: number }[] = []
  const booked: { hosts: readonly Host[]; keys: string[] }[] = []
  let clock = 0
  let interrupted: 'SIGINT' | undefined
  const result = await runAttempts(plan, {
    exec: async (_command, { planned }) => {
      const step = steps[ran.length] ?? { category: 'ok', names: 'none', ms: 100, interrupted: false, retryAfter: undefined }
      ran.push({ attempt: planned, at: clock, step })
      clock += step.ms
      if (step.interrupted) interrupted = 'SIGINT'
      return { exitCode: step.category === 'ok' && !step.interrupted ? 0 : 1, output: '', durationMs: step.ms, ...(step.interrupted && { interrupted: 'SIGINT' as const }) }
    },
    diagnose: () => {
      const { step, attempt } = ran.at(-1)!
      const host = namedHost(step, attempt.hosts)
      return diagnosisOf(step.category as Category, { ...(host && { host }), ...(step.retryAfter && { retryAfterSeconds: step.retryAfter }) })
    },
    sleep: async ms => { sleeps.push({ from: clock, ms }); clock += ms },
    now: () => clock,
    random: () => 0.5,
    interrupted: () => interrupted,
    reporter: { attemptStarted: () => {}, attemptFailed: () => {}, waiting: () => {}, note: () => {}, finished: () => {} },
    book: (outcome, hosts) => { booked.push({ hosts, keys: bookingsFor(outcome, hosts).map(booking => booking.key) }) },
  })
  return { result, ran, sleeps, booked }
}

const RUNS = { numRuns: 500 }

describe('planRun and rankSources (properties)', () => {
  it('a private index never leads to a public mirror, and a private pinned registry is never redirected', () => fc.assert(fc.property(worldArb, stateArb, (world, state) => {
    const plan = rankSources(planFor(world), snapshotOf(state)).plan
    if (world.userIndex === 'private') {
      expect(plan.attempts.every(attempt => attempt.source.kind === 'private' && attempt.source.url === undefined)).toBe(true)
      expect(plan.upstream).toBeUndefined()
    }
    for (const attempt of plan.attempts) {
      expect(attempt.lockfileRewrite?.from ?? []).not.toContain(PRIVATE)
      if (world.pins.includes(PRIVATE) && attempt.source.url) {
        expect(attempt.command.argv).not.toContain('--replace-registry-host=always')
        expect(attempt.hosts.some(host => host.role === 'lockfile' && PRIVATE.startsWith(`https://${host.host}`))).toBe(true)
      }
    }
  }), RUNS))

  it('ranking keeps every attempt (the breaker saves time, never an install), --mirror first, failing sources last', () => fc.assert(fc.property(worldArb, stateArb, (world, state) => {
    const planned = planFor(world)
    const frozen = JSON.stringify(planned)
    const { plan } = rankSources(planned, snapshotOf(state))
    expect(JSON.stringify(planned)).toBe(frozen)
    expect([...plan.attempts].map(a => a.source.id).sort()).toEqual([...planned.attempts].map(a => a.source.id).sort())
    const requested = planned.attempts.filter(attempt => attempt.requested).map(attempt => attempt.source.id)
    expect(plan.attempts.slice(0, requested.length).map(attempt => attempt.source.id)).toEqual(requested)
    const failing = plan.attempts.map(attempt => /tried last$/.test(attempt.reason))
    expect(failing.indexOf(true) === -1 || failing.slice(failing.indexOf(true)).every(Boolean)).toBe(true)
  }), RUNS))
})

describe('runAttempts (properties)', () => {
  it('books only against hosts the attempt contacted; ends within maxAttempts and maxTotalSeconds; Ctrl-C never retries; tries every untried source before spending the budget on one', async () => {
    await fc.assert(fc.asyncProperty(worldArb, stateArb, fc.array(stepArb, { maxLength: 8 }), async (world, state, steps) => {
      const plan = rankSources(planFor(world), snapshotOf(state)).plan
      const { result, ran, sleeps, booked } = await play(plan, steps)
      const budgetMs = world.maxTotalSeconds * 1000
      expect(ran.length).toBeLessThanOrEqual(world.maxAttempts)
      ran.slice(1).forEach(({ at }) => expect(at).toBeLessThan(budgetMs))
      sleeps.forEach(({ from, ms }) => expect(from + ms).toBeLessThan(budgetMs))
      booked.forEach(({ hosts, keys }, at) => {
        expect(hosts).toBe(ran[at]!.attempt.hosts)
        keys.forEach(key => expect(hosts.map(host => host.key)).toContain(key))
      })
      const stopped = ran.findIndex(({ step }) => step.interrupted)
      if (stopped >= 0) {
        expect(ran).toHaveLength(stopped + 1)
        expect(result.outcome).toBe('interrupted')
        expect(booked).toHaveLength(stopped)
      }
      if (world.userIndex === 'private') expect(ran.every(({ attempt }) => attempt.source.kind === 'private')).toBe(true)
      // Ran out of sources for failures a retry could fix: every planned source within the budget was tried first.
      const last = result.finalDiagnosis
      const exhausted = result.outcome === 'gave-up' && last && last.remedy.kind !== 'give-up' && last.category !== 'package_not_found'
        && !/time budget|looks down|lockfile pins|credentials/.test(`${result.stopReason} ${result.hint ?? ''}`) && !(last.category === 'http_auth' && plan.attempts[0]!.source.kind === 'private')
      if (exhausted) {
        const tried = new Set(ran.map(({ attempt }) => attempt.source.id))
        expect(tried.size).toBeGreaterThanOrEqual(Math.min(world.maxAttempts, plan.attempts.length))
      }
    }), RUNS)
  })

  it('blames a failure on a contacted host or on none', () => fc.assert(fc.property(worldArb, stepArb, (world, step) => {
    for (const attempt of planFor(world).attempts) {
      const host = namedHost(step, attempt.hosts)
      const blamed = blamedHost(diagnosisOf('timeout', host ? { host } : {}), attempt.hosts)
      if (blamed) expect(attempt.hosts).toContain(blamed)
    }
  }), RUNS))
})
