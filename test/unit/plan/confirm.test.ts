import { describe, expect, it } from 'vitest'
import { configSchema } from '../../../src/config/schema.js'
import { confirmSource } from '../../../src/plan/confirm.js'
import { planRun } from '../../../src/plan/plan-run.js'
import type { IndexChoice } from '../../../src/tools/types.js'
import { diagnosisOf, planOf, runScripted } from '../retry/harness.js'

// The index pip uses is behind a shim (its interpreter's own pip.conf): resilient asks pip before anything leaves it.
const UNSURE = 'pip is a shim'
const PRIVATE: IndexChoice = { url: 'https://pypi.corp.example/simple', origin: 'pip config list: global.index-url' }
const config = configSchema.parse({})
const unsure = (extra: Record<string, unknown> = {}) => planOf('pip', 'install privpkg', extra, { sourceUncertain: UNSURE })

describe('RunPlan.unconfirmed', () => {
  it('is set for a source that may be left or probed, never for one already kept to', () => {
    expect(unsure().unconfirmed).toBe(UNSURE)
    expect(planOf('pip', 'install x', {}, { sourceUncertain: UNSURE, userIndex: PRIVATE }).unconfirmed).toBeUndefined()
    expect(planOf('pip', 'install x', {}, { sourceUncertain: UNSURE, userIndex: { url: 'none', origin: '--no-index' } }).unconfirmed).toBeUndefined()
    expect(planOf('pip', 'install x').unconfirmed).toBeUndefined()
  })
})

describe('confirmSource: what the tool\'s answer means', () => {
  it('no answer counts as private, and says why', () => {
    const result = confirmSource(unsure(), undefined, { config, asked: 'pip config list', failure: 'exit 2' })
    expect(result).toMatchObject({ private: true, replanFor: { url: '', privateBecause: expect.stringContaining('pip is a shim') } })
    expect(result.note).toMatch(/could not tell which index pip uses \(pip is a shim\) and `pip config list` did not say \(exit 2\).*never sent elsewhere/)
  })
  it('an index that is not known to resilient is private', () => {
    expect(confirmSource(unsure(), PRIVATE, { config, asked: 'pip config list' })).toMatchObject({ private: true, replanFor: PRIVATE, note: expect.stringMatching(/^pip says: pypi\.corp\.example .* not a public index/) })
  })
  it('no-index is local: private too', () => {
    expect(confirmSource(unsure(), { url: 'none', origin: 'pip config list: global.no-index' }, { config, asked: 'pip config list' })).toMatchObject({ private: true })
  })
  it('the default index, as planned: the same plan, confirmed', () => {
    const plan = unsure()
    const result = confirmSource(plan, null, { config, asked: 'pip config list' })
    expect('plan' in result && result.plan).toMatchObject({ attempts: plan.attempts })
    expect('plan' in result && result.plan.unconfirmed).toBeUndefined()
  })
  it('another public index than planned: planned again for it, mirrors kept', () => {
    expect(confirmSource(unsure(), { url: 'https://mirrors.aliyun.com/pypi/simple', origin: 'pip config list: global.index-url' }, { config, asked: 'pip config list' })).toMatchObject({ private: false, replanFor: { url: 'https://mirrors.aliyun.com/pypi/simple' } })
  })
})

describe('runAttempts with a plan not sure of its index', () => {
  const privatePlan = (plan = unsure()) => planRun({ invocation: plan.invocation, cwd: '/project', config, userIndex: PRIVATE, userKnobs: false })

  it('asks before switching to a mirror; a private answer keeps every attempt on the tool\'s own index', async () => {
    let asked = 0
    const run = await runScripted(unsure(), [{ diagnosis: diagnosisOf('timeout') }, { diagnosis: diagnosisOf('timeout') }], { confirmSource: async () => { asked++; return privatePlan() } })
    expect(asked).toBe(1)
    expect(run.calls.map(call => call.argv.join(' '))).toEqual(['pip install privpkg', 'pip install privpkg'])
    expect(run.calls.map(call => call.source)).toEqual(['upstream', 'primary'])
    expect(run.result.outcome).toBe('gave-up')
  })

  it('asks before the probe, which then asks the confirmed index, never the assumed one', async () => {
    const probed: (string | undefined)[] = []
    await runScripted(unsure(), [{ diagnosis: diagnosisOf('package_not_found', { package: 'privpkg' }) }], {
      confirmSource: async () => privatePlan(),
      probe: async source => { probed.push(source.indexUrl); return undefined },
    })
    expect(probed).toEqual([PRIVATE.url])
  })

  it('asks before a first attempt that applies an index of the config, and then keeps to the tool\'s own', async () => {
    const plan = unsure({ pypi: { index: 'https://pypi.company-proxy.example/simple' } })
    expect(plan.attempts[0]!.source.url).toBeDefined()
    const run = await runScripted(plan, [{ exitCode: 0 }], { confirmSource: async () => privatePlan(plan) })
    expect(run.calls[0]!.argv.join(' ')).toBe('pip install privpkg')
  })

  it('asks nothing when the run succeeds on the tool\'s own index, or when nothing would leave it', async () => {
    let asked = 0
    const confirmSource = async () => { asked++; return privatePlan() }
    await runScripted(unsure(), [{ exitCode: 0 }], { confirmSource })
    await runScripted(unsure(), [{ diagnosis: diagnosisOf('build_failure') }], { confirmSource })
    expect(asked).toBe(0)
  })

  it('books nothing against an index it only guessed; against the confirmed one once it knows it', async () => {
    const healthy = await runScripted(unsure(), [{ exitCode: 0 }])
    expect(healthy.bookings).toEqual([])
    const failing = await runScripted(unsure(), [{ diagnosis: diagnosisOf('timeout') }, { diagnosis: diagnosisOf('timeout') }], { confirmSource: async () => privatePlan() })
    expect(failing.bookings.map(booking => booking.hosts.map(host => host.host))).toEqual([['pypi.corp.example'], ['pypi.corp.example']])
  })

  it('without a way to ask, nothing leaves the tool\'s own index', async () => {
    const run = await runScripted(unsure(), [{ diagnosis: diagnosisOf('timeout') }, { diagnosis: diagnosisOf('timeout') }])
    expect(run.calls.map(call => call.argv.join(' '))).toEqual(['pip install privpkg', 'pip install privpkg'])
  })
})

describe('requests to other sources with a plan not sure of its index', () => {
  it('sends nothing anywhere while unconfirmed (a probe of a mirror would leave a private index); a sure plan is watched', async () => {
    const { createHedgeWatch } = await import('../../../src/retry/hedge-watch.js')
    const asked: string[] = []
    const ask = async (url: URL) => { asked.push(String(url)); return 'answered' as const }
    const watched = (plan: ReturnType<typeof unsure>) => {
      const started: boolean[] = []
      const hedge = createHedgeWatch(plan, { env: {}, activity: () => ({}), ask })!
      return { started, watch: (attempt: Parameters<typeof hedge>[0], number: number) => {
        const watch = hedge(attempt, number)
        started.push(watch !== undefined)
        watch?.stop()
        return undefined
      } }
    }
    const unsurePlan = unsure({ pypi: { mirrors: ['https://mirror.example/simple'] } })
    expect(unsurePlan.attempts.length).toBeGreaterThan(1)
    const unsureWatch = watched(unsurePlan)
    await runScripted(unsurePlan, [{ exitCode: 0 }], { watch: unsureWatch.watch })
    expect(unsureWatch.started).toEqual([])
    expect(asked).toEqual([])
    const sure = planOf('pip', 'install x', { pypi: { mirrors: ['https://mirror.example/simple'] } })
    const sureWatch = watched(sure)
    await runScripted(sure, [{ exitCode: 0 }], { watch: sureWatch.watch })
    expect(sureWatch.started).toEqual([true])
  })

  it('asks the tool before asking other sources whether they answer, then asks only the confirmed ones', async () => {
    const order: string[] = []
    const plan = unsure({ pypi: { mirrors: ['https://mirror.example/simple'] } })
    const privatePlan = () => planRun({ invocation: plan.invocation, cwd: '/project', config, userIndex: PRIVATE, userKnobs: false })
    await runScripted(plan, [{ diagnosis: diagnosisOf('timeout') }, { diagnosis: diagnosisOf('timeout') }], {
      confirmSource: async () => { order.push('confirm'); return privatePlan() },
      alive: async source => { order.push(`alive ${source.url ?? source.id}`); return true },
    })
    expect(order[0]).toBe('confirm')
    expect(order.filter(step => step.includes('mirror.example'))).toEqual([])
  })
})
