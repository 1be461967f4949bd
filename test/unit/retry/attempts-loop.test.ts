import { describe, expect, it } from 'vitest'
import { diagnose } from '../../../src/diagnose/index.js'
import { RULES } from '../../../src/diagnose/rules/index.js'
import type { Rule } from '../../../src/diagnose/types.js'
import { diagnosisOf, planOf, runScripted } from './harness.js'

const MIRRORS = { pypi: { mirrors: ['https://mirror-a.test/simple', 'https://mirror-b.test/simple'] } }
const pipPlan = (config: Record<string, unknown> = {}, userIndex?: string) =>
  planOf('pip', 'install torch', { ...MIRRORS, ...config }, userIndex ? { userIndex: { url: userIndex, origin: '--index-url' } } : {})
const timeout = (host = 'pypi.org') => ({ exitCode: 1, diagnosis: diagnosisOf('timeout', { host }), ms: 7000 })

describe('runAttempts', () => {
  it('runs once and succeeds without touching the command', async () => {
    const { result, calls } = await runScripted(pipPlan(), [{ exitCode: 0 }])
    expect(result.outcome).toBe('succeeded')
    expect(calls).toEqual([{ argv: ['pip', 'install', 'torch'], env: {}, source: 'upstream' }])
  })

  it('switches to the next mirror after a timeout, saying attempt N of the M really planned', async () => {
    const { result, calls, events } = await runScripted(pipPlan(), [timeout(), { exitCode: 0 }])
    expect(result.exitCode).toBe(0)
    expect(calls[1]!.argv).toEqual(['pip', 'install', 'torch', '--index-url', 'https://mirror-a.test/simple'])
    expect(events).toEqual(['start 1/3 upstream', 'failed 1 timeout', 'start 2/3 mirror-a.test', 'finished succeeded 0'])
  })

  it('gives up with the last exit code once every source failed: each is tried once', async () => {
    const failure = { ...timeout(), exitCode: 2 }
    const { result, calls } = await runScripted(pipPlan(), [failure, failure, failure, failure])
    expect(result).toMatchObject({ outcome: 'gave-up', exitCode: 2 })
    expect(result.stopReason).toMatch(/^every source failed/)
    expect(calls).toHaveLength(3)
  })

  it('respects maxAttempts, and counts "of M" within it', async () => {
    const { calls, events } = await runScripted(pipPlan({ maxAttempts: 2 }), [timeout(), timeout(), timeout()])
    expect(calls).toHaveLength(2)
    expect(events[0]).toBe('start 1/2 upstream')
  })

  it('stops at once on a package missing upstream', async () => {
    const { result, calls } = await runScripted(pipPlan(), [{ exitCode: 1, diagnosis: diagnosisOf('package_not_found', { host: 'pypi.org', hostRole: 'upstream' }) }])
    expect(result.outcome).toBe('gave-up')
    expect(calls).toHaveLength(1)
    expect(result.hint).toBe('Check the package name and version (pip index versions <name>): pypi.org does not have it.')
  })

  it('tries upstream once when a package is missing on a mirror', async () => {
    const missing = { exitCode: 1, diagnosis: diagnosisOf('package_not_found') }
    const { calls } = await runScripted(pipPlan({}, 'https://mirror-a.test/simple'), [missing, missing, missing])
    expect(calls).toHaveLength(2)
    expect(calls[1]!.argv.slice(-2)).toEqual(['--index-url', 'https://pypi.org/simple'])
  })

  it.each([
    ['the public upstream', {}],
    ['an index of the config that is no mirror (a company proxy)', { pypi: { index: 'https://pypi.corp.example/simple', mirrors: [] } }],
  ])('a version missing on a --mirror put first is asked once of the plan\'s index: %s', async (_, config) => {
    const plan = planOf('pip', 'install torch==2.0', { pypi: { mirrors: [] }, ...config }, { preferredMirrors: ['https://mirror-a.test/simple'] })
    const missing = { exitCode: 1, diagnosis: diagnosisOf('package_not_found', { package: 'torch', version: '2.0' }) }
    const { result, calls } = await runScripted(plan, [missing, { exitCode: 0 }])
    expect(calls.map(call => call.source)).toEqual(['mirror-a.test', plan.primary.id])
    expect(result.outcome).toBe('succeeded')
  })

  it('re-downloads elsewhere without the cache after a hash mismatch', async () => {
    const { calls } = await runScripted(pipPlan(), [{ exitCode: 1, diagnosis: diagnosisOf('hash_mismatch') }, { exitCode: 0 }])
    expect(calls[1]!.argv).toEqual(['pip', 'install', 'torch', '--index-url', 'https://mirror-a.test/simple', '--no-cache-dir'])
  })

  it('stops when two different indexes cannot be resolved: the network is down, more mirrors cannot help', async () => {
    const dns = { exitCode: 1, diagnosis: diagnosisOf('dns') }
    const { result, calls } = await runScripted(pipPlan(), [dns, dns, dns])
    expect(calls).toHaveLength(2)
    expect(result.stopReason).toMatch(/network of this machine looks down/)
    expect(result.hint).toMatch(/resolv\.conf|VPN/)
  })

  it('does not retry what no retry can fix', async () => {
    const { result, calls } = await runScripted(pipPlan(), [{ exitCode: 1, diagnosis: diagnosisOf('externally_managed') }])
    expect(calls).toHaveLength(1)
    expect(result.hint).toMatch(/venv/)
  })

  it('retries a sole private index once in place after a pause, never on a mirror, then gives up', async () => {
    const { result, calls, sleeps } = await runScripted(pipPlan({}, 'https://pypi.corp.example/simple'), [timeout('pypi.corp.example'), timeout('pypi.corp.example'), { exitCode: 0 }])
    expect(calls.map(call => call.argv.join(' '))).toEqual(['pip install torch', 'pip install torch'])
    expect(sleeps).toHaveLength(1)
    expect(result.stopReason).toMatch(/failed twice/)
  })

  it('turns pip\'s check for a newer pip off on every retry, in place or on a mirror, never on the first attempt', async () => {
    const inPlace = await runScripted(pipPlan({}, 'https://pypi.corp.example/simple'), [timeout('pypi.corp.example'), { exitCode: 0 }])
    expect(inPlace.calls.map(call => call.env.PIP_DISABLE_PIP_VERSION_CHECK)).toEqual([undefined, '1'])
    const onMirror = await runScripted(pipPlan(), [timeout(), { exitCode: 0 }])
    expect(onMirror.calls.map(call => call.env.PIP_DISABLE_PIP_VERSION_CHECK)).toEqual([undefined, '1'])
  })

  it('a sole index that still does not answer resilient\'s own request is not tried again: the tool spent its retries on it', async () => {
    const asked: string[] = []
    const alive = async (source: { id: string }) => { asked.push(source.id); return false }
    const { result, calls } = await runScripted(pipPlan({}, 'https://pypi.corp.example/simple'), [timeout('pypi.corp.example'), { exitCode: 0 }], { alive })
    expect(calls).toHaveLength(1)
    expect(asked).toEqual(['primary'])
    expect(result).toMatchObject({ outcome: 'gave-up', exitCode: 1 })
    expect(result.stopReason).toMatch(/did not answer a request of resilient's own either/)
  })

  it('after a timeout, when no source left answers resilient\'s own request, stops with the tool\'s status instead of waiting as long again', async () => {
    const asked: string[] = []
    const alive = async (source: { id: string }) => { asked.push(source.id); return false }
    const { result, calls } = await runScripted(pipPlan(), [{ ...timeout(), exitCode: 2 }, { exitCode: 0 }], { alive })
    expect(calls).toHaveLength(1)
    expect(asked.sort()).toEqual(['mirror-a.test', 'mirror-b.test'])
    expect(result).toMatchObject({ outcome: 'gave-up', exitCode: 2 })
    expect(result.stopReason).toMatch(/no other source answered a request of resilient's own either/)
  })

  it('goes on when one source left answers', async () => {
    const { calls } = await runScripted(pipPlan(), [timeout(), { exitCode: 0 }], { alive: async source => source.id === 'mirror-b.test' })
    expect(calls).toHaveLength(2)
  })

  it('a sole index that answers now is tried once more', async () => {
    const { result, calls } = await runScripted(pipPlan({}, 'https://pypi.corp.example/simple'), [timeout('pypi.corp.example'), { exitCode: 0 }], { alive: async () => true })
    expect(calls).toHaveLength(2)
    expect(result.outcome).toBe('succeeded')
  })

  it('"not found" on an index that lists the package: the same index once more after a pause, then the next source', async () => {
    const notFound = { exitCode: 1, diagnosis: diagnosisOf('package_not_found', { package: 'torch' }) }
    const againFlags: boolean[] = []
    const probe = async (_source: unknown, diagnosis: ReturnType<typeof diagnosisOf>, again?: boolean) => {
      againFlags.push(Boolean(again))
      return { ...diagnosisOf('server_error', { status: 200 }), ruleId: 'resilient-index-probe', facts: { ...diagnosis.facts, status: 200 } }
    }
    const { result, calls, sleeps } = await runScripted(pipPlan(), [notFound, notFound, { exitCode: 0 }], { probe })
    expect(calls.map(call => call.source)).toEqual(['upstream', 'upstream', 'mirror-a.test'])
    expect(sleeps).toHaveLength(1)
    expect(againFlags).toEqual([false, true])
    expect(result.outcome).toBe('succeeded')
  })

  it('never retries after a user interrupt, and books nothing', async () => {
    const { result, calls, bookings } = await runScripted(pipPlan(), [{ exitCode: 130, interrupted: 'SIGINT' }])
    expect(calls).toHaveLength(1)
    expect(result).toMatchObject({ outcome: 'interrupted', exitCode: 130 })
    expect(bookings).toEqual([])
  })

  it('runs read-only verbs once, unchanged, and keeps their exit code', async () => {
    const { result, calls } = await runScripted(planOf('pip', 'list', MIRRORS), [{ exitCode: 3, diagnosis: diagnosisOf('timeout') }])
    expect(calls).toEqual([{ argv: ['pip', 'list'], env: {}, source: 'primary' }])
    expect(result).toMatchObject({ outcome: 'ran-once', exitCode: 3 })
  })

  it('stops when the time budget would be exceeded by a wait', async () => {
    const { calls, result } = await runScripted(pipPlan({ maxTotalSeconds: 5, pypi: { mirrors: [] } }), [timeout(), timeout()])
    expect(calls).toHaveLength(1)
    expect(result.stopReason).toMatch(/time budget of 5 s/)
  })

  it('never retries after an interrupt: the tool\'s own status stands, and its death by signal is passed up (docs/process.md)', async () => {
    // Each attempt's output reads as a retryable timeout: only the interrupt may stop the loop.
    const scripted = (fields: Record<string, unknown>) => {
      let calls = 0
      const exec = async () => { calls++; return { exitCode: 1, output: 'timeout', durationMs: 1, ...fields } as never }
      return { deps: { exec, diagnose: () => timeout().diagnosis }, calls: () => calls }
    }
    const handled = scripted({ exitCode: 5, interrupted: 'SIGTERM' })
    const trapped = await runScripted(pipPlan(), [timeout()], handled.deps)
    expect(handled.calls()).toBe(1)
    expect(trapped.result).toMatchObject({ outcome: 'interrupted', exitCode: 5 })
    expect(trapped.result.signal).toBeUndefined()
    expect(trapped.bookings).toEqual([])
    const killed = scripted({ exitCode: 130, interrupted: 'SIGINT', signal: 'SIGINT' })
    const died = await runScripted(pipPlan(), [timeout()], killed.deps)
    expect(killed.calls()).toBe(1)
    expect(died.result).toMatchObject({ outcome: 'interrupted', exitCode: 130, signal: 'SIGINT' })
  })

  it('never retries a tool killed by a signal resilient did not receive (`kill <tool pid>`, the OOM killer), and passes it up', async () => {
    let calls = 0
    const exec = async () => { calls++; return { exitCode: 137, signal: 'SIGKILL' as const, output: 'timeout', durationMs: 1 } }
    const { result, bookings } = await runScripted(pipPlan(), [timeout()], { exec, diagnose: () => timeout().diagnosis })
    expect(calls).toBe(1)
    expect(bookings).toEqual([])
    expect(result).toMatchObject({ outcome: 'interrupted', exitCode: 137, signal: 'SIGKILL' })
  })

  it('does retry a tool that resilient itself stopped (a stall), though it died of SIGTERM', async () => {
    let calls = 0
    const exec = async () => ++calls === 1
      ? { exitCode: 143, signal: 'SIGTERM' as const, abortedBecause: 'no byte received for 60 s', output: '', durationMs: 1 }
      : { exitCode: 0, output: '', durationMs: 1 }
    const { result } = await runScripted(pipPlan(), [timeout(), { exitCode: 0 }], { exec })
    expect(calls).toBe(2)
    expect(result).toMatchObject({ outcome: 'succeeded', exitCode: 0 })
    expect(result.signal).toBeUndefined()
  })

  it('gives up with the status of the last attempt that ran to its end, never that of resilient\'s own SIGTERM', async () => {
    const stopped = { exitCode: 143, signal: 'SIGTERM' as const, abortedBecause: 'no answer from pypi.org', output: '', durationMs: 1 }
    const outcomes = [{ exitCode: 2, output: 'timeout', durationMs: 1 }, stopped, stopped]
    const exec = async () => outcomes.shift()!
    const { result } = await runScripted(pipPlan({ maxAttempts: 3 }), [{ exitCode: 2, diagnosis: timeout().diagnosis }], { exec, diagnose: () => timeout().diagnosis })
    expect(result).toMatchObject({ outcome: 'gave-up', exitCode: 2 })
    expect(result.attempts.map(attempt => attempt.exitCode)).toEqual([2, 143, 143])
  })

  it('gives up with the tool\'s generic failure, 1, when resilient stopped every attempt itself', async () => {
    const exec = async () => ({ exitCode: 143, signal: 'SIGTERM' as const, abortedBecause: 'stalled', output: '', durationMs: 1 })
    const { result } = await runScripted(pipPlan({ maxAttempts: 2 }), [], { exec })
    expect(result).toMatchObject({ outcome: 'gave-up', exitCode: 1 })
  })

  it('never diagnoses or retries a broken pipe (`| head`): the tool\'s status stands', async () => {
    let calls = 0
    const exec = async () => { calls++; return { exitCode: 141, signal: 'SIGPIPE' as const, brokenPipe: true, output: 'timeout', durationMs: 1 } }
    const { result } = await runScripted(pipPlan(), [timeout()], { exec, diagnose: () => timeout().diagnosis })
    expect(calls).toBe(1)
    expect(result).toMatchObject({ outcome: 'ran-once', exitCode: 141, signal: 'SIGPIPE' })
  })

  it('makes no retry its input could not be given to again, and says why', async () => {
    let calls = 0
    const exec = async () => { calls++; return { exitCode: 1, output: 'timeout', durationMs: 1, cannotRepeat: 'the tool read more than 8.0 MB of its standard input' } }
    const { result } = await runScripted(pipPlan(), [timeout()], { exec, diagnose: () => timeout().diagnosis })
    expect(calls).toBe(1)
    expect(result).toMatchObject({ outcome: 'gave-up', exitCode: 1, stopReason: 'no retry: the tool read more than 8.0 MB of its standard input' })
  })

  it('ends as the signal would when it comes between two attempts', async () => {
    const { result, calls, sleeps } = await runScripted(pipPlan({ pypi: { mirrors: [] } }, 'https://private.test/simple'), [timeout('private.test')], { interrupted: () => 'SIGTERM' })
    expect(sleeps.length).toBe(1)
    expect(calls).toHaveLength(1)
    expect(result).toMatchObject({ outcome: 'interrupted', exitCode: 143, signal: 'SIGTERM' })
  })

  it('reports 127 when the tool cannot be started', async () => {
    const { result } = await runScripted(pipPlan(), [{ exitCode: 127 }], {
      exec: async () => ({ exitCode: 127, output: '', durationMs: 1, spawnError: 'spawn pip ENOENT' }),
    })
    expect(result).toMatchObject({ outcome: 'failed', exitCode: 127 })
    const notExecutable = await runScripted(pipPlan(), [{ exitCode: 126 }], {
      exec: async () => ({ exitCode: 126, output: '', durationMs: 1, spawnError: '/usr/bin/pip: Permission denied' }),
    })
    expect(notExecutable.result).toMatchObject({ outcome: 'failed', exitCode: 126 })
  })
})

describe('a diagnosis rule that throws', () => {
  it('is skipped, the run goes on, and --verbose names it', async () => {
    const broken = { ...RULES[0]!, id: 'test-broken', tools: 'any', match: () => { throw new Error('bad regex') } } as Rule
    const verbose: string[] = []
    const reporter = { attemptStarted() {}, attemptFailed() {}, waiting() {}, note() {}, finished() {}, verbose: (line: string) => { verbose.push(line) } }
    const { result } = await runScripted(pipPlan(), [timeout(), { exitCode: 0 }], { reporter, diagnose: (failure, onRuleError) => diagnose(failure, [broken, ...RULES], onRuleError) })
    expect(result.attempts[0]?.diagnosis?.ruleId).not.toBe('test-broken')
    expect([...new Set(verbose)]).toEqual(['diagnosis rule test-broken failed and was skipped: bad regex'])
  })
})
