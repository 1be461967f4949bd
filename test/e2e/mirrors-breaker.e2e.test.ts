import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildWheel, startPypiServer, type BuiltWheel, type PypiServer } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig, relayOffUnlessSaid } from '../helpers/e2e-setup.js'

// Real pip through the built CLI, several runs sharing one state directory: the circuit breaker and the learned
// order must change what the next run contacts.
let wheels: BuiltWheel[]
const servers: PypiServer[] = []
beforeAll(() => { wheels = [buildWheel('demo-pkg', '1.0')] })
afterEach(async () => { await Promise.all(servers.splice(0).map(server => server.close())) })

async function server(options: Parameters<typeof startPypiServer>[0] = { wheels }): Promise<PypiServer> {
  const started = await startPypiServer(options)
  servers.push(started)
  return started
}
const failing = () => server({ wheels, fault: { kind: 'status', status: 503 } })

async function download(cwd: string, env: Record<string, string>, flags: string[] = []) {
  const dest = mkdtempSync(join(tmpdir(), 'resilient-dl-'))
  const report = join(dest, 'report.json')
  // pip's own retries set to none, as a person may: these runs are about what the breaker remembers, and a failing
  // index would otherwise cost pip's 5 retries on every attempt.
  const result = await runCli([...flags, '--report', report, 'python3', '-m', 'pip', 'download', '--no-deps', '--retries', '0', '-d', join(dest, 'wheels'), 'demo-pkg'], { cwd, env })
  return { ...result, attempts: () => JSON.parse(readFileSync(report, 'utf8')).attempts as { command: string[]; diagnosis: { category: string } | null }[] }
}

// Several real pip runs per test: generous timeouts for a shared, busy CI machine.
describe('mirror health across runs (real pip)', { timeout: 180_000 }, () => {
  it('after breaker.failureThreshold failed runs, the next run skips those indexes without contacting them', async () => {
    const primary = await failing()
    const bad = await failing()
    const good = await server()
    const env = isolatedEnv()
    const cwd = projectWithConfig({ maxAttempts: 2, breaker: { failureThreshold: 3 }, pypi: { index: primary.url, mirrors: [bad.url] } })
    for (let run = 1; run <= 3; run++) {
      const result = await download(cwd, env)
      expect(result.exitCode, result.all).not.toBe(0)
      expect(result.attempts().map(attempt => attempt.diagnosis?.category)).toEqual(['server_error', 'server_error'])
    }
    const seen = { primary: primary.requests.length, bad: bad.requests.length }
    expect(seen.primary).toBeGreaterThan(0)
    writeFileSync(join(cwd, '.resilientrc.json'), JSON.stringify(relayOffUnlessSaid({ breaker: { failureThreshold: 3 }, pypi: { index: primary.url, mirrors: [bad.url, good.url] } })))

    const result = await download(cwd, env, ['--verbose'])
    expect(result.exitCode, result.all).toBe(0)
    expect(primary.requests.length).toBe(seen.primary)
    expect(bad.requests.length).toBe(seen.bad)
    expect(result.attempts()).toHaveLength(1)
    expect(result.attempts()[0]!.command).toContain(good.url)
    // Failing sources are tried last, never dropped: the healthy one answered first (said with --verbose: a healthy
    // run prints nothing of resilient's own).
    expect(result.stderr).toMatch(/127\.0\.0\.1:\d+, 127\.0\.0\.1:\d+: failing from this network .*, so tried last/)

    const listed = await runCli(['mirrors', 'list', 'pypi', '--json'], { cwd, env })
    const mirrors = JSON.parse(listed.stdout).ecosystems[0].mirrors as { url: string; breaker: string }[]
    expect(Object.fromEntries(mirrors.slice(0, 3).map(mirror => [mirror.url, mirror.breaker]))).toEqual({ [primary.url]: 'open', [bad.url]: 'open', [good.url]: 'closed' })
  })

  it('after the cooldown lets the index through once; one more failure skips it again', async () => {
    const primary = await failing()
    const good = await server()
    const env = isolatedEnv()
    // The verdict is computed from the counts at each run, so the cooldown can be changed between runs instead of
    // waiting it out: long while a run must skip, short when the next one must find it over.
    const withCooldown = (cooldownSeconds: number) => projectWithConfig({ breaker: { failureThreshold: 1, cooldownSeconds }, pypi: { index: primary.url, mirrors: [good.url] } })
    const longCooldown = withCooldown(600)
    expect((await download(longCooldown, env)).exitCode).toBe(0)
    const afterFirst = primary.requests.length
    expect((await download(longCooldown, env)).exitCode).toBe(0)
    expect(primary.requests.length).toBe(afterFirst)
    await new Promise(resolve => setTimeout(resolve, 1100))
    const trial = await download(withCooldown(1), env)
    expect(trial.exitCode).toBe(0)
    expect(primary.requests.length).toBeGreaterThan(afterFirst)
    const afterTrial = primary.requests.length
    expect((await download(longCooldown, env)).exitCode).toBe(0)
    expect(primary.requests.length).toBe(afterTrial)
  })

  it('tries first what fixed this last time, and --verbose says so', async () => {
    const primary = await failing()
    const bad = await failing()
    const good = await server()
    const env = isolatedEnv()
    const cwd = projectWithConfig({ pypi: { index: primary.url, mirrors: [bad.url, good.url] } })
    const first = await download(cwd, env)
    expect(first.exitCode, first.all).toBe(0)
    // A 503 waits once and retries the same index, then moves on; no wait while the budget cannot hold it.
    expect(first.attempts().map(attempt => attempt.command.includes(good.url) ? 'good' : attempt.command.includes(bad.url) ? 'bad' : 'primary')).toEqual(['primary', 'primary', 'bad', 'good'])
    const badSeen = bad.requests.length

    const second = await download(cwd, env, ['--verbose'])
    expect(second.exitCode, second.all).toBe(0)
    // The index stays attempt 1; the mirror that fixed it comes next, ahead of the one that failed too.
    expect(second.attempts()).toHaveLength(3)
    expect(second.attempts()[2]!.command).toContain(good.url)
    expect(bad.requests.length).toBe(badSeen)
    expect(second.stderr).toContain(`127.0.0.1:${good.port} fixed this last time (server error on 127.0.0.1:${primary.port}): it comes right after 127.0.0.1:${primary.port}`)
    expect(second.stderr).not.toContain('trying it first')
  })

  it('sets a corrupt state file aside with a warning and still runs', async () => {
    const good = await server()
    const env = isolatedEnv()
    const { mkdirSync } = await import('node:fs')
    mkdirSync(env.RESILIENT_STATE_DIR!, { recursive: true })
    writeFileSync(join(env.RESILIENT_STATE_DIR!, 'state.json'), '{"version": 1, "netw')
    const result = await download(projectWithConfig({ pypi: { index: good.url, mirrors: [] } }), env)
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toMatch(/state\.json could not be read \(not JSON.*\); it was set aside as .*state\.json\.corrupt-\d+/)
    expect(result.stderr).not.toMatch(/internal error|at .*\.js:\d+/)
    expect(JSON.parse(readFileSync(join(env.RESILIENT_STATE_DIR!, 'state.json'), 'utf8')).version).toBe(1)
  })
})
