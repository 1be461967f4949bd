import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildWheel, type BuiltWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'
import { envWithTool, PACKAGES } from '../helpers/npm-registries.js'
import { startNpmRegistry } from '../helpers/fake-npm-registry.js'

// The decisions after a failed attempt and the messages that say them (docs/plan.md), through the built CLI with real pip and npm and
// real yarn against servers on 127.0.0.1.

let wheels: BuiltWheel[]
beforeAll(() => { wheels = [buildWheel('demo-pkg', '1.0')] })
const server = pypiServers()
const hostOf = (url: string) => new URL(url).host

function pipDownload(cwd: string, env: Record<string, string>, extra: string[] = []) {
  const dest = mkdtempSync(join(tmpdir(), 'resilient-dl-'))
  const report = join(dest, 'report.json')
  return runCli(['--report', report, 'python3', '-m', 'pip', 'download', '--no-deps', '-d', join(dest, 'wheels'), ...extra, 'demo-pkg'], { cwd, env })
    .then(result => ({ ...result, report: () => JSON.parse(readFileSync(report, 'utf8')) as { attempts: { command: string[]; hosts: string[]; diagnosis: { category: string } | null }[]; hint: string | null } }))
}

describe('decisions (real tools)', { timeout: 180_000 }, () => {
  it('a persistent 429 waits once, then the healthy mirror is asked', async () => {
    const primary = await server({ wheels, fault: { kind: 'status', status: 429, retryAfter: 2 } })
    const mirror = await server({ wheels })
    // pip waits for a 429's Retry-After itself; its own retries set to none (as a person may), the wait is resilient's.
    const result = await pipDownload(projectWithConfig({ pypi: { index: primary.url, mirrors: [mirror.url] } }), isolatedEnv(), ['--retries', '0'])
    expect(result.exitCode, result.all).toBe(0)
    expect(result.report().attempts.map(attempt => attempt.hosts[0])).toEqual([hostOf(primary.url), hostOf(primary.url), hostOf(mirror.url)])
    expect(result.stderr).toMatch(/waiting 2 s before trying /)
    expect(result.stderr).toContain(`attempt 2 of 3 on ${hostOf(primary.url)}:`)
    expect(result.stderr).toContain(`attempt 3 of 3 on mirror ${hostOf(mirror.url)}:`)
  })

  /** resilient's own request to a sole index after a timeout gets an answer within 5 s or none (docs/plan.md). */
  const OWN_REQUEST_MS = 5000
  /** Starting, planning, diagnosing and writing the report: well under a second on a quiet machine (npm run bench). */
  const OWN_WORK_MS = 10_000

  // The tool's own timeout and retries are never shortened (pip's default: 15 s × 6 tries on a black hole); these
  // tests set short ones of their own, as a person may, to keep the run short.
  it('pip on a sole index that hangs: pip\'s own timeout, no second attempt while the index stays silent, pip advice', async () => {
    const hanging = await server({ wheels, fault: { kind: 'blackhole' } })
    const started = Date.now()
    const result = await pipDownload(projectWithConfig({}), isolatedEnv(), ['--index-url', hanging.url, '--timeout', '3', '--retries', '0'])
    const seconds = (Date.now() - started) / 1000
    expect(result.exitCode).toBe(1)
    const { attempts, durationMs } = result.report() as unknown as { durationMs: number; attempts: { durationMs: number; diagnosis: { category: string } }[] }
    expect(attempts.map(attempt => attempt.diagnosis.category)).toEqual(['timeout'])
    // What resilient adds: one request of its own to the index (no answer within 5 s), no pause, no second attempt;
    // and its own work around them, which a loaded machine stretches (hence 10 s on top, not a tight bound).
    expect(durationMs - attempts[0]!.durationMs).toBeLessThan(OWN_REQUEST_MS + OWN_WORK_MS)
    expect(result.stderr).toMatch(/did not answer a request of resilient's own either/)
    expect(result.report().hint).toMatch(/pip install --timeout 60/)
    expect(result.report().hint).not.toMatch(/resilient <tool>|through resilient|npm|cargo|GOPROXY|conda/)
    console.log(`pip, sole hanging index: gave up after ${seconds.toFixed(1)} s`)
  })

  it('npm on a sole registry that hangs: npm\'s own timeout, no second attempt while it stays silent, npm advice', async () => {
    const hanging = await startNpmRegistry({ packages: PACKAGES, fault: { kind: 'blackhole' } })
    try {
      const project = projectWithConfig({})
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', private: true }))
      const report = join(project, 'report.json')
      const started = Date.now()
      const result = await runCli(['--report', report, 'npm', 'install', 'left-pad-x', `--registry=${hanging.url}`, '--fetch-timeout=3000', '--fetch-retries=0'], { cwd: project, env: envWithTool('npm') })
      const seconds = (Date.now() - started) / 1000
      expect(result.exitCode).not.toBe(0)
      const written = JSON.parse(readFileSync(report, 'utf8')) as { durationMs: number; attempts: { durationMs: number; exitCode: number; diagnosis: { category: string } }[]; hint: string }
      expect(written.attempts.map(attempt => attempt.diagnosis.category)).toEqual(['timeout'])
      expect(result.exitCode).toBe(written.attempts[0]!.exitCode)
      expect(written.durationMs - written.attempts[0]!.durationMs).toBeLessThan(OWN_REQUEST_MS + OWN_WORK_MS)
      expect(written.hint).toMatch(/npm install --fetch-timeout=120000/)
      expect(written.hint).not.toMatch(/\bpip\b|resilient <tool>|UV_|cargo|GOPROXY|conda/)
      console.log(`npm, sole hanging registry: gave up after ${seconds.toFixed(1)} s`)
    } finally {
      await hanging.close()
    }
  })

  it('--mirror is tried first, as documented, and --dry-run shows the hosts of each attempt', async () => {
    const primary = await server({ wheels })
    const picked = await server({ wheels })
    const result = await runCli(['--dry-run', '--mirror', picked.url, 'python3', '-m', 'pip', 'download', 'demo-pkg'],
      { cwd: projectWithConfig({ pypi: { index: primary.url, mirrors: [] } }), env: isolatedEnv() })
    expect(result.exitCode, result.all).toBe(0)
    const lines = result.stdout.trim().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toContain(`--index-url ${picked.url}`)
    expect(result.stderr).toContain(`# attempt 1 of 2 on mirror ${hostOf(picked.url)} — --mirror, as you asked; contacts ${hostOf(picked.url)}`)
    expect(result.stderr).toContain(`# attempt 2 of 2 on ${hostOf(primary.url)} — the index from the config (pypi.index); contacts ${hostOf(primary.url)}`)
  })

  it('times are 24-hour in every locale (LANG=C.UTF-8)', async () => {
    const env = isolatedEnv({ LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' })
    const failing = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const cwd = projectWithConfig({ maxAttempts: 1, breaker: { failureThreshold: 1, cooldownSeconds: 43_200 }, pypi: { index: failing.url, mirrors: [] } })
    await pipDownload(cwd, env, ['--retries', '0'])
    const listed = await runCli(['mirrors', 'list', 'pypi'], { cwd, env })
    expect(listed.stdout).toMatch(/tried last until \d\d:\d\d \(1 failures in a row: server error\)/)
    expect(listed.stdout).not.toMatch(/\b(AM|PM)\b/)
  })

  it('doctor calls yarn 1.22 "yarn", never "yarn-berry"', async () => {
    const result = await runCli(['doctor', '--json'], { env: envWithTool('yarn1') })
    const tools = JSON.parse(result.stdout).sections['Package managers'] as { tool: string; found: boolean; version?: string }[]
    expect(tools.find(tool => tool.tool === 'yarn')).toMatchObject({ found: true, version: expect.stringMatching(/^1\.22/) })
    expect(tools.some(tool => tool.tool === 'yarn-berry' && tool.found)).toBe(false)
  })

  it('a single attempt that cannot be retried is said in plain words', async () => {
    // An https URL on a plain-http server: the TLS handshake fails, which no retry fixes.
    const plain = await server({ wheels })
    const result = await pipDownload(projectWithConfig({ pypi: { mirrors: [] } }), isolatedEnv(), ['--index-url', plain.url.replace('http:', 'https:'), '--retries', '0'])
    expect(result.exitCode).not.toBe(0)
    expect(result.report().attempts).toHaveLength(1)
    expect(result.stderr).toMatch(/✖ failed after [\d.]+ s, not retried: ssl/)
    expect(result.stderr).not.toMatch(/gave up after 1 attempt/)
  })
})
