import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildWheel, type BuiltWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { filesIn, projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'

// Real pip (python3 -m pip) through the built CLI, against fault-injecting PEP 503 servers on 127.0.0.1.
let wheels: BuiltWheel[]

beforeAll(() => {
  wheels = [buildWheel('demo-pkg', '1.0'), buildWheel('demo-pkg', '2.0')]
})

const server = pypiServers()

function download(cwd: string, spec = 'demo-pkg', extra: string[] = []) {
  const dest = mkdtempSync(join(tmpdir(), 'resilient-dl-'))
  const report = join(dest, '..', `report-${Date.now()}-${Math.random()}.json`)
  const run = runCli(['--report', report, 'python3', '-m', 'pip', 'download', '--no-deps', '-d', dest, ...extra, spec], { cwd, env: isolatedEnv() })
  return run.then(result => ({ ...result, dest, report: () => JSON.parse(readFileSync(report, 'utf8')) }))
}

describe('real pip through resilient', () => {
  it('recovers from a black-holed primary on a healthy mirror before pip\'s own 15 s timeout', async () => {
    const primary = await server({ wheels, fault: { kind: 'blackhole' } })
    const mirror = await server({ wheels })
    const cwd = projectWithConfig({ pypi: { index: primary.url, mirrors: [mirror.url] } })
    const result = await download(cwd)
    expect(result.exitCode, result.all).toBe(0)
    expect(filesIn(result.dest)).toEqual(['demo_pkg-2.0-py3-none-any.whl'])
    const report = result.report()
    expect(report.attempts.map((a: { diagnosis: { category: string } | null }) => a.diagnosis?.category ?? null)).toEqual(['timeout', null])
    // Left by resilient (hedged detection), so before pip's own read timeout ended it: no wall-clock bound, which a
    // loaded machine stretches (how soon on a quiet one: npm run bench).
    expect(report.attempts[0].stoppedByResilient, result.all).toBe(true)
    expect(report.attempts[1].command).toContain(mirror.url)
    expect(result.stderr).toMatch(/attempt 1 failed.*timeout/)
    expect(result.stderr).toMatch(/done in 2 attempts \(switched to mirror 127\.0\.0\.1:\d+\)/)
  })

  it('recovers from a 503 primary', async () => {
    const primary = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels })
    const result = await download(projectWithConfig({ pypi: { index: primary.url, mirrors: [mirror.url] } }))
    expect(result.exitCode, result.all).toBe(0)
    expect(result.report().attempts[0].diagnosis.category).toBe('server_error')
  })

  it('recovers from a primary that resets connections', async () => {
    const primary = await server({ wheels, fault: { kind: 'reset' } })
    const mirror = await server({ wheels })
    const result = await download(projectWithConfig({ pypi: { index: primary.url, mirrors: [mirror.url] } }))
    expect(result.exitCode, result.all).toBe(0)
    // pip retries the resets itself, then fails on a dropped connection; resilient may leave the index sooner, once
    // the mirror has answered its own request while the index reset it (hedged detection: a timeout), when it saw
    // pip's connections open (each lasts milliseconds).
    expect(['connection', 'timeout']).toContain(result.report().attempts[0].diagnosis.category)
  })

  it('a 429 with Retry-After that pip waits for itself: one attempt, as pip alone', async () => {
    const primary = await server({ wheels, fault: ({ isFile }) => isFile ? { kind: 'ok' } : { kind: 'status', status: 429, retryAfter: 2, times: 2 } })
    const cwd = projectWithConfig({ pypi: { index: primary.url, mirrors: [] } })
    const started = Date.now()
    const result = await download(cwd)
    expect(result.exitCode, result.all).toBe(0)
    expect(Date.now() - started).toBeGreaterThanOrEqual(4000)
    expect(result.report().attempts.map((attempt: { diagnosis: unknown }) => attempt.diagnosis)).toEqual([null])
  })

  it('retries a corrupted wheel (hash mismatch) elsewhere without the cache, never weakening hashes', async () => {
    const primary = await server({ wheels, fault: { kind: 'corrupt' } })
    const mirror = await server({ wheels })
    const wheel = wheels[1]!
    const result = await download(projectWithConfig({ pypi: { index: primary.url, mirrors: [mirror.url] } }), 'demo-pkg==2.0')
    expect(result.exitCode, result.all).toBe(0)
    const report = result.report()
    expect(report.attempts[0].diagnosis.category).toBe('hash_mismatch')
    expect(report.attempts[1].command).toContain('--no-cache-dir')
    expect(report.attempts[1].command.join(' ')).not.toMatch(/trusted-host|no-verify|hash/i)
    expect(readFileSync(join(result.dest, wheel.filename)).equals(wheel.bytes)).toBe(true)
  })

  it('tries the upstream index once when a version is missing on a mirror', async () => {
    const upstream = await server({ wheels })
    const lagging = await server({ wheels, missing: ['demo-pkg==2.0'] })
    const cwd = projectWithConfig({ pypi: { index: upstream.url, mirrors: [lagging.url] } })
    const result = await download(cwd, 'demo-pkg==2.0', ['-i', lagging.url])
    expect(result.exitCode, result.all).toBe(0)
    const report = result.report()
    expect(report.attempts.map((a: { diagnosis: { category: string } | null }) => a.diagnosis?.category ?? null)).toEqual(['package_not_found', null])
    expect(report.attempts[1].command).toContain(upstream.url)
  })

  it('stops at once when the package does not exist upstream', async () => {
    const upstream = await server({ wheels })
    const mirror = await server({ wheels })
    const result = await download(projectWithConfig({ pypi: { index: upstream.url, mirrors: [mirror.url] } }), 'no-such-package')
    expect(result.exitCode).toBe(1)
    expect(result.report().attempts).toHaveLength(1)
    expect(result.stderr).toMatch(/failed after [\d.]+ s, not retried: package not found/)
    expect(mirror.requests).toEqual([])
  })

  it('never sends an install from a private index to a mirror', async () => {
    const privateIndex = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels })
    const cwd = projectWithConfig({ maxAttempts: 2, maxWaitSeconds: 0.2, pypi: { mirrors: [mirror.url] } })
    // pip's own retries of the 503 set to none (as a person may), to keep the run short.
    const result = await download(cwd, 'demo-pkg', ['--index-url', privateIndex.url.replace('127.0.0.1', 'localhost'), '--retries', '0'])
    expect(result.exitCode).not.toBe(0)
    expect(mirror.requests).toEqual([])
    expect(result.report().attempts).toHaveLength(2)
  })

  it('runs read-only verbs once, unchanged, with stdout byte for byte', async () => {
    const env = isolatedEnv()
    const { execa } = await import('execa')
    const plain = await execa('python3', ['-m', 'pip', 'freeze'], { env, extendEnv: false, reject: false })
    const wrapped = await runCli(['python3', '-m', 'pip', 'freeze'], { env })
    expect(wrapped.exitCode).toBe(plain.exitCode)
    expect(wrapped.stdout).toBe(plain.stdout)
    expect(wrapped.stderr).toBe(plain.stderr)
  })
})
