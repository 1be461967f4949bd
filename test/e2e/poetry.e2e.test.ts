import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { buildWheel } from '../helpers/fake-pypi.js'
import type { Fault, FaultChoice } from '../../src/demo/fault-server.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli, runWithReport } from '../helpers/run-cli.js'
import { projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'
import { command, describeNeeding } from '../helpers/requirements.js'

// Real poetry (Debian's python3-poetry) through the built CLI, against PEP 503 servers on 127.0.0.1. poetry has no
// way to use a mirror for one run, so resilient retries the project's own source.

const servers = pypiServers({ wheels: [buildWheel('demo-pkg', '1.0')] })
const server = (fault?: FaultChoice) => servers({ fault })

/** A poetry project whose only source is `index` (a primary source: PyPI is not used). */
function project(index: string, config: unknown): string {
  const dir = projectWithConfig(config)
  writeFileSync(join(dir, 'pyproject.toml'), [
    '[tool.poetry]', 'name = "demo-project"', 'version = "0.1.0"', 'description = ""', 'authors = ["t <t@example.com>"]', '',
    '[tool.poetry.dependencies]', 'python = "^3.9"', 'demo-pkg = "*"', '',
    '[[tool.poetry.source]]', 'name = "corp"', `url = "${index}"`, 'default = true', '',
  ].join('\n'))
  return dir
}

async function poetry(args: string[], cwd: string) {
  // No keyring: poetry would ask the desktop keyring for the source's credentials.
  const env = isolatedEnv({ PYTHON_KEYRING_BACKEND: 'keyring.backends.null.Keyring' })
  return runWithReport(['poetry', ...args], { cwd, env })
}

describeNeeding(command('poetry'), 'real poetry through resilient', () => {
  it('recovers from a 500 of its own source by retrying it, its own timeout untouched', async () => {
    let requests = 0
    const fault = (): Fault => ++requests === 1 ? { kind: 'status', status: 500 } : { kind: 'ok' }
    const corp = await server(fault)
    const mirror = await server()
    const cwd = project(corp.url, { pypi: { mirrors: [mirror.url] } })
    const run = await poetry(['lock'], cwd)
    expect(run.exitCode, run.all).toBe(0)
    expect(readFileSync(join(cwd, 'poetry.lock'), 'utf8')).toMatch(/name = "demo-pkg"\nversion = "1\.0"/)
    expect(run.attempts.map(attempt => attempt.diagnosis?.category ?? null)).toEqual(['server_error', null])
    expect(run.attempts.map(attempt => attempt.command)).toEqual([['poetry', 'lock'], ['poetry', 'lock']])
    expect(mirror.requests).toEqual([])
  })

  it('never sends a private source elsewhere, and says so', async () => {
    const corp = await server({ kind: 'status', status: 500 })
    const mirror = await server()
    const run = await poetry(['lock'], project(corp.url, { maxAttempts: 2, pypi: { mirrors: [mirror.url] } }))
    expect(run.exitCode).toBe(1)
    expect(run.attempts).toHaveLength(2)
    expect(run.attempts.every(attempt => attempt.source?.startsWith('your index 127.0.0.1'))).toBe(true)
    expect(mirror.requests).toEqual([])
  })

  it('plans one attempt on the same index in --dry-run', async () => {
    const cwd = projectWithConfig({ pypi: { mirrors: ['https://pypi-mirror.test/simple'] } })
    const run = await runCli(['--dry-run', '--verbose', 'poetry', 'add', 'requests'], { cwd, env: isolatedEnv({ RESILIENT_TRUST_PROJECT_CONFIG: '1' }) })
    expect(run.stdout).toBe('poetry add requests')
    expect(run.stderr).toMatch(/no mirror will be used: poetry has no option or variable that points PyPI elsewhere/)
  })
})
