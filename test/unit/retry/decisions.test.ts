import { describe, expect, it } from 'vitest'
import type { LockedRegistries } from '../../../src/tools/types.js'
import { diagnosisOf, planOf, runScripted } from './harness.js'

// One test per decision of docs/plan.md, on the loop as runTool drives it (fake clock,
// scripted attempts). Real tools and servers cover the same decisions in test/e2e/plan-*.e2e.test.ts.

const MIRROR = { pypi: { mirrors: ['https://mirror-a.test/simple'] } }
const rateLimited = (seconds = 2, host = 'pypi.org') => ({ exitCode: 1, diagnosis: diagnosisOf('rate_limited', { host, retryAfterSeconds: seconds, status: 429 }), ms: 500 })

describe('rate limits and 5xx wait once, then move on', () => {
  it('a persistent 429 waits Retry-After once, then asks the healthy mirror', async () => {
    const { calls, sleeps, result } = await runScripted(planOf('pip', 'install torch', MIRROR), [rateLimited(), rateLimited(), { exitCode: 0 }])
    expect(calls.map(call => call.source)).toEqual(['upstream', 'upstream', 'mirror-a.test'])
    expect(sleeps).toEqual([2000])
    expect(result.outcome).toBe('succeeded')
  })

  it('a 5xx from the same source twice moves on; it never spends the budget before an untried source', async () => {
    const failing = { exitCode: 1, diagnosis: diagnosisOf('server_error', { host: 'pypi.org', status: 503 }) }
    const { calls } = await runScripted(planOf('pip', 'install torch', { ...MIRROR, maxAttempts: 2 }), [failing, failing, { exitCode: 0 }])
    // Two attempts in all and two sources: no wait on the index, the mirror gets the second.
    expect(calls.map(call => call.source)).toEqual(['upstream', 'mirror-a.test'])
  })

  it('a Retry-After longer than maxWaitSeconds goes to the next source at once', async () => {
    const { calls, sleeps } = await runScripted(planOf('pip', 'install torch', { ...MIRROR, maxWaitSeconds: 5 }), [rateLimited(120), { exitCode: 0 }])
    expect(calls.map(call => call.source)).toEqual(['upstream', 'mirror-a.test'])
    expect(sleeps).toEqual([])
  })
})

describe('a sole source that hangs twice is given up on', () => {
  it('pip with default settings: two attempts, well under 30 s', async () => {
    const hang = { exitCode: 1, diagnosis: diagnosisOf('timeout', { host: 'pypi.corp.example' }), ms: 7000 }
    const plan = planOf('pip', 'install torch', {}, { userIndex: { url: 'https://pypi.corp.example/simple', origin: '--index-url' } })
    const { calls, clock, result } = await runScripted(plan, [hang, hang, hang, hang])
    expect(calls).toHaveLength(2)
    expect(result.finalDiagnosis?.category).toBe('timeout')
    expect(clock()).toBeLessThanOrEqual(30_000)
  })
})

describe('advice in the tool\'s terms and for the cause', () => {
  it('an npm timeout gets npm advice: no pip, uv, cargo, GOPROXY or conda, never "run it through resilient"', async () => {
    const hang = { exitCode: 1, diagnosis: diagnosisOf('timeout', { host: 'registry.npmjs.org' }) }
    const { result } = await runScripted(planOf('npm', 'install left-pad', { npm: { mirrors: [] } }), [hang, hang])
    expect(result.hint).toContain('npm install --fetch-timeout=120000')
    expect(result.hint).not.toMatch(/\bpip\b|\buv\b|UV_|cargo|CARGO|GOPROXY|conda|resilient <tool>|through resilient/i)
  })

  it('a 429 is never "check the name", even when the probe turned a not-found into it', async () => {
    const notFound = { exitCode: 1, diagnosis: diagnosisOf('package_not_found', { package: 'torch' }) }
    const { result } = await runScripted(planOf('pip', 'install torch', { pypi: { mirrors: [] } }), [notFound, notFound], {
      probe: async () => diagnosisOf('rate_limited', { host: 'pypi.org', status: 429, retryAfterSeconds: 1 }),
    })
    expect(result.finalDiagnosis?.category).toBe('rate_limited')
    expect(result.hint).toMatch(/^pypi\.org is rate-limiting this network \(HTTP 429\)/)
    expect(result.hint).not.toMatch(/check the (package )?name/i)
  })
})

describe('no advice to install elsewhere for a private index', () => {
  it('a 5xx from your own index says try later, never "use another index"', async () => {
    const failing = { exitCode: 1, diagnosis: diagnosisOf('server_error', { host: 'pypi.corp.example', status: 503 }) }
    const plan = planOf('pip', 'install torch', MIRROR, { userIndex: { url: 'https://pypi.corp.example/simple', origin: '--index-url' } })
    const { result } = await runScripted(plan, [failing, failing])
    expect(result.hint).toBe('pypi.corp.example is failing on its side (HTTP 5xx). Try again later.')
  })
})

describe('attribution: a failure is booked against the host it is about', () => {
  it('a failure of a registry the lockfile pins, which every attempt left contacts too, stops with the lockfile named', async () => {
    const locked: LockedRegistries = { file: '/project/package-lock.json', registries: [{ prefix: 'https://npm.corp.test/', count: 3 }] }
    const plan = planOf('npm', 'ci', { npm: { mirrors: ['https://mirror.test/'] } }, { locked })
    const reset = { exitCode: 1, diagnosis: diagnosisOf('connection', { host: 'npm.corp.test', url: 'https://npm.corp.test/a/-/a-1.0.0.tgz' }) }
    const { calls, result, bookings } = await runScripted(plan, [reset, reset])
    expect(calls).toHaveLength(1)
    expect(result.stopReason).toBe('npm.corp.test, which the lockfile pins, failed; no attempt left avoids it')
    expect(result.hint).toMatch(/^package-lock\.json pins 3 packages to npm\.corp\.test: /)
    expect(bookings[0]!.hosts.map(host => `${host.host} ${host.role}`)).toEqual(['registry.npmjs.org index', 'npm.corp.test lockfile'])
  })
})

describe('messages say what happens', () => {
  it('"attempt N of M": M is what will really be tried (two sources, maxAttempts 4: "of 2")', async () => {
    const hang = { exitCode: 1, diagnosis: diagnosisOf('timeout') }
    const { events } = await runScripted(planOf('pip', 'install torch', MIRROR), [hang, hang])
    expect(events.filter(event => event.startsWith('start'))).toEqual(['start 1/2 upstream', 'start 2/2 mirror-a.test'])
  })

  it('a wait adds the repeat to M, and the note after a switch names the source really used next', async () => {
    const { events, notes } = await runScripted(planOf('pip', 'install torch', { pypi: { mirrors: ['https://a.test/simple', 'https://b.test/simple'] } }),
      [rateLimited(1), { exitCode: 1, diagnosis: diagnosisOf('timeout') }, { exitCode: 0 }])
    expect(events.filter(event => event.startsWith('start'))).toEqual(['start 1/3 upstream', 'start 2/4 upstream', 'start 3/4 a.test'])
    expect(notes).toEqual(['pypi.org failed: switching to mirror a.test'])
  })
})
