import { execa } from 'execa'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildWheel, type BuiltWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { CLI, runCli } from '../helpers/run-cli.js'
import { projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'

// Rows of "never worse than the plain tool" that the differential matrix (differential-*.e2e.test.ts) does not
// cover as such, with the real pip against local servers; each of them failed on the main branch the issue was filed
// against. And the other half of the promise: a healthy run is invisible.

let wheels: BuiltWheel[]
beforeAll(() => { wheels = [buildWheel('demo-pkg', '1.0'), buildWheel('extra-pkg', '1.0')] })
const server = pypiServers()

function download(cwd: string, args: string[], env = isolatedEnv()) {
  const dest = mkdtempSync(join(tmpdir(), 'resilient-dl-'))
  const report = join(dest, 'report.json')
  return runCli(['--report', report, 'python3', '-m', 'pip', 'download', '--no-deps', '-d', join(dest, 'wheels'), ...args], { cwd, env })
    .then(result => ({ ...result, report: () => JSON.parse(readFileSync(report, 'utf8')) as { attempts: { exitCode: number; diagnosis: { category: string; summary: string } | null }[] } }))
}

describe('never worse than the plain tool: rows of the issue', { timeout: 180_000 }, () => {
  it('a private --extra-index-url that answers two 503s, then recovers: installed, as by pip alone', async () => {
    // Only the extra index has the package: its failure is the whole answer.
    const index = await server({ wheels: wheels.slice(0, 1) })
    const extra = await server({ wheels, fault: ({ path, count }) => path === '/simple/extra-pkg/' && count <= 2 ? { kind: 'status', status: 503 } : { kind: 'ok' } })
    const result = await download(projectWithConfig({}), ['--index-url', index.url, '--extra-index-url', extra.url, 'extra-pkg'])
    expect(result.exitCode, result.all).toBe(0)
    expect(result.report().attempts.map(attempt => attempt.diagnosis)).toEqual([null])
  })

  it('every index answering after 3.5 s, with --timeout 60: nothing abandoned, no exit 143, no advice to set --timeout 60', async () => {
    const slow = { kind: 'delay', ms: 3500 } as const
    const index = await server({ wheels, fault: slow })
    const mirror = await server({ wheels, fault: slow })
    const result = await download(projectWithConfig({ pypi: { index: index.url, mirrors: [mirror.url] } }), ['--timeout', '60', 'demo-pkg'])
    expect(result.exitCode, result.all).toBe(0)
    expect(result.report().attempts).toHaveLength(1)
    expect(result.stderr).not.toMatch(/--timeout 60/)
  })

  it('--mirror M lagging behind (no demo-pkg 2.0 there): the index, here a company proxy named in the config, is asked once', async () => {
    const newest = [...wheels, buildWheel('demo-pkg', '2.0')]
    const index = await server({ wheels: newest })
    const lagging = await server({ wheels: newest, missing: ['demo-pkg==2.0'] })
    const result = await runCli(['--mirror', lagging.url, 'python3', '-m', 'pip', 'download', '--no-deps', '-d', mkdtempSync(join(tmpdir(), 'dl-')), 'demo-pkg==2.0'],
      { cwd: projectWithConfig({ pypi: { index: index.url, mirrors: [] } }) })
    expect(result.exitCode, result.all).toBe(0)
    expect(lagging.requests).toContain('/simple/demo-pkg/')
    expect(index.requests).toContain('/files/demo_pkg-2.0-py3-none-any.whl')
  })

  it('every source dead: resilient exits with pip\'s own status, never 143 from a SIGTERM of its own', async () => {
    const index = await server({ wheels, fault: { kind: 'blackhole' } })
    const mirror = await server({ wheels, fault: { kind: 'blackhole' } })
    const plain = await execa('python3', ['-m', 'pip', 'download', '--no-deps', '-d', mkdtempSync(join(tmpdir(), 'dl-')), '--index-url', index.url, '--timeout', '3', '--retries', '0', 'demo-pkg'],
      { reject: false, env: isolatedEnv(), extendEnv: false })
    const result = await download(projectWithConfig({ pypi: { index: index.url, mirrors: [mirror.url] } }), ['--timeout', '3', '--retries', '0', 'demo-pkg'])
    expect(plain.exitCode).toBe(1)
    expect(result.exitCode, result.all).toBe(plain.exitCode)
    expect(result.report().attempts.map(attempt => attempt.exitCode)).not.toContain(143)
  })
})

describe('a healthy run is invisible', { timeout: 120_000 }, () => {
  const project = () => {
    const dir = mkdtempSync(join(tmpdir(), 'resilient-healthy-'))
    writeFileSync(join(dir, '.resilientrc.json'), '{}')
    return dir
  }
  /** `<command> 2>&1`, as a CI log or a file gets it; `-q` and `-d .` keep pip's own output free of temporary paths. */
  const both = (argv: string[], cwd: string, env: Record<string, string>) =>
    execa(argv[0]!, argv.slice(1), { cwd, env, extendEnv: false, reject: false, stdin: 'ignore', all: true }).then(result => ({ exitCode: result.exitCode, all: String(result.all) }))

  it('with 2>&1, the bytes are the plain tool\'s: nothing of resilient\'s own', async () => {
    const index = await server({ wheels })
    const args = ['python3', '-m', 'pip', 'download', '--no-deps', '-d', '.', '--index-url', index.url, 'demo-pkg']
    const plain = await both(args, project(), isolatedEnv())
    const ours = await both(['node', CLI, ...args], project(), isolatedEnv())
    expect(plain.exitCode).toBe(0)
    expect(ours).toEqual(plain)
  })

  it('under GitHub Actions: no ::group:: and no annotation on a healthy run', async () => {
    const index = await server({ wheels })
    const args = ['python3', '-m', 'pip', 'download', '--no-deps', '-d', '.', '--index-url', index.url, 'demo-pkg']
    const plain = await both(args, project(), isolatedEnv({ GITHUB_ACTIONS: 'true', CI: 'true' }))
    const ours = await both(['node', CLI, ...args], project(), isolatedEnv({ GITHUB_ACTIONS: 'true', CI: 'true' }))
    expect(ours.all).not.toMatch(/::(group|warning|notice|error)/)
    expect(ours).toEqual(plain)
  })

  it('-v shows the command', async () => {
    const index = await server({ wheels })
    const result = await runCli(['-v', 'python3', '-m', 'pip', 'download', '--no-deps', '-d', mkdtempSync(join(tmpdir(), 'dl-')), '--index-url', index.url, 'demo-pkg'], { cwd: project() })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toMatch(/^→ python3 -m pip download --no-deps -d \S+ --index-url http:\/\/127\.0\.0\.1:\d+\/simple demo-pkg$/m)
  })
})
