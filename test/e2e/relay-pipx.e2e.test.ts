import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { beforeAll, expect, it } from 'vitest'
import type { FaultChoice } from '../../src/demo/fault-server.js'
import type { BuiltWheel } from '../helpers/fake-pypi.js'
import { buildAppWheel } from '../support/app-wheel.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli, runWithReport } from '../helpers/run-cli.js'
import { projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'
import { command, describeNeeding } from '../helpers/requirements.js'

// Real pipx (Debian's 1.1.0) through the built CLI with the relay on, against PEP 503 servers on 127.0.0.1 with
// faults; beside plain pipx where the outcome is compared. pipx runs pip in the app's venv with its own environment
// (pipx util.py run_subprocess): PIP_INDEX_URL and NETRC reach that pip.
let wheels: BuiltWheel[]
beforeAll(() => {
  wheels = [buildAppWheel('demo-app', '1.0'), buildAppWheel('demo-app', '2.0', { paddingBytes: 1_500_000 })]
})
const server = pypiServers()
const PIPX = command('pipx')
const pagesOnly = (fault: FaultChoice) => ({ fault: (request: Parameters<Exclude<FaultChoice, { kind: string }>>[0]) => request.isFile ? { kind: 'ok' as const } : typeof fault === 'function' ? fault(request) : fault })
const filesOnly = (fault: FaultChoice) => ({ fault: (request: Parameters<Exclude<FaultChoice, { kind: string }>>[0]) => request.isFile ? typeof fault === 'function' ? fault(request) : fault : { kind: 'ok' as const } })

async function throughResilient(config: unknown, args: string[], extraEnv: Record<string, string> = {}) {
  return runWithReport(['pipx', ...args], { cwd: projectWithConfig({ relay: true, ...config as object }), env: isolatedEnv(extraEnv) })
}

const installed = (home: string) => execFileSync(join(home, '.local', 'bin', 'demo-app'), { encoding: 'utf8' })
// pipx records the venv's paths (under HOME): the rest must be the plain tool's byte for byte.
const metadata = (home: string) => readFileSync(join(home, '.local', 'pipx', 'venvs', 'demo-app', 'pipx_metadata.json'), 'utf8').split(home).join('<HOME>')

describeNeeding(PIPX, 'real pipx through the relay', () => {
  it('installs from the mirror in one attempt when the index answers 503, and records what plain pipx records', async () => {
    const index = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels })
    const run = await throughResilient({ pypi: { index: index.url, mirrors: [mirror.url] } }, ['install', 'demo-app'])
    expect(run.exitCode, run.all).toBe(0)
    expect(installed(run.home)).toBe('demo-app 2.0\n')
    expect(run.attempts).toHaveLength(1)
    const [first] = run.attempts
    // Pointed by variables pipx passes on and never records; the secret in a private netrc, never on argv.
    expect(first!.command.filter(word => !word.includes('='))).toEqual(['pipx', 'install', 'demo-app'])
    expect(first!.command.find(word => word.startsWith('PIP_INDEX_URL='))).toMatch(/^PIP_INDEX_URL=http:\/\/127\.[\d.]+:\d+\/simple\/$/)
    expect(first!.command.find(word => word.startsWith('NETRC='))).toBeDefined()
    const plain = isolatedEnv({ PIP_INDEX_URL: (await server({ wheels })).url })
    const plainRun = await execa('pipx', ['install', 'demo-app'], { reject: false, all: true, env: plain, extendEnv: false, timeout: 120_000 })
    expect(plainRun.exitCode, plainRun.all).toBe(0)
    expect(metadata(run.home)).toBe(metadata(plain.HOME!))
    expect(metadata(run.home)).not.toMatch(/127\.|simple/)
  })

  it('a download breaking at 80 % on the index is resumed on the mirror: at most 1.1 times the file\'s bytes', async () => {
    const index = await server({ wheels, ...filesOnly({ kind: 'truncate', atFraction: 0.8 }) })
    const mirror = await server({ wheels })
    const run = await throughResilient({ pypi: { index: index.url, mirrors: [mirror.url] } }, ['install', 'demo-app'])
    expect(run.exitCode, run.all).toBe(0)
    expect(installed(run.home)).toBe('demo-app 2.0\n')
    expect(run.attempts).toHaveLength(1)
    // Pages are a few hundred bytes each; pipx's shared libraries ask for pip, setuptools and wheel (404 here).
    expect(index.bytesSent() + mirror.bytesSent()).toBeLessThan(1.1 * wheels[1]!.bytes.length + 30_000)
  })

  it('a 429 with Retry-After on the index\'s page is waited out, and a reset on a file is taken from the mirror', async () => {
    const index = await server({ wheels, fault: ({ isFile, path, count }) => isFile ? { kind: 'reset' } : path === '/simple/demo-app/' && count === 1 ? { kind: 'status', status: 429, retryAfter: 1 } : { kind: 'ok' } })
    const mirror = await server({ wheels })
    const run = await throughResilient({ pypi: { index: index.url, mirrors: [mirror.url] } }, ['install', 'demo-app'])
    expect(run.exitCode, run.all).toBe(0)
    expect(installed(run.home)).toBe('demo-app 2.0\n')
    expect(index.requests.filter(path => path === '/simple/demo-app/')).toHaveLength(2)
    expect(mirror.requests.filter(path => path.startsWith('/simple/'))).toEqual([])
  })

  it('a slow index with a lagging mirror: the index\'s newest version, as plain pipx', async () => {
    const index = await server({ wheels, ...pagesOnly({ kind: 'delay', ms: 1500 }) })
    const lagging = await server({ wheels, missing: ['demo-app==2.0'] })
    const run = await throughResilient({ pypi: { index: index.url, mirrors: [lagging.url] } }, ['install', 'demo-app'])
    expect(run.exitCode, run.all).toBe(0)
    expect(installed(run.home)).toBe('demo-app 2.0\n')
    expect(lagging.requests.filter(path => path.startsWith('/simple/'))).toEqual([])
  })

  it('with a private extra index (PIP_EXTRA_INDEX_URL), no page ever comes from a mirror', async () => {
    const index = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const corp = await server({ wheels: [] })
    const mirror = await server({ wheels })
    const run = await throughResilient({ maxAttempts: 2, pypi: { index: index.url, mirrors: [mirror.url] } }, ['install', 'demo-app'], { PIP_EXTRA_INDEX_URL: corp.url })
    expect(run.exitCode).not.toBe(0)
    expect(mirror.requests.filter(path => path.startsWith('/simple/'))).toEqual([])
    expect(corp.requests).toContain('/simple/demo-app/')
  })

  it('--dry-run names the relay\'s attempt, its sources and the variables that point pipx at it', async () => {
    const cwd = projectWithConfig({ relay: true, pypi: { index: 'http://127.0.0.1:9/simple', mirrors: ['http://127.0.0.1:8/simple'] } })
    const run = await runCli(['-n', 'pipx', 'install', 'black'], { cwd, env: isolatedEnv() })
    expect(run.stderr).toMatch(/# attempt 1 of 2 on 127\.0\.0\.1:9 — .*; through resilient's relay on 127\.\d+\.\d+\.\d+:\d+, which asks for pages of 127\.0\.0\.1:9 \(of 127\.0\.0\.1:8 only once 127\.0\.0\.1:9 fails\), and for files 127\.0\.0\.1:9, 127\.0\.0\.1:8 per request/)
    expect(run.stdout.split('\n')[0]).toMatch(/^PIP_INDEX_URL=(http:\/\/127\.[\d.]+:\d+\/simple\/) UV_INDEX_URL=\1 PIP_TRUSTED_HOST=127\.[\d.]+:\d+ NETRC=\S+ pipx install black/)
    // A private index (PIP_INDEX_URL) never goes through it.
    const own = await runCli(['-n', '--verbose', 'pipx', 'install', 'black'], { cwd, env: isolatedEnv({ PIP_INDEX_URL: 'https://pypi.corp.example/simple' }) })
    expect(own.stderr).toMatch(/no relay: .*not a public index/)
    expect(own.stdout).not.toMatch(/NETRC|127\./)
  })
})
