import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { buildAppWheel } from '../support/app-wheel.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli, runWithReport } from '../helpers/run-cli.js'
import { projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'
import { command, describeNeeding } from '../helpers/requirements.js'

// Real pipx (Debian's, `apt-get install pipx`) through the built CLI, against PEP 503 servers on 127.0.0.1.

const wheels = [buildAppWheel('demo-app', '1.0')]
const server = pypiServers()

async function pipx(args: string[], config: unknown, extraEnv: Record<string, string> = {}) {
  const env = isolatedEnv(extraEnv)
  return runWithReport(['pipx', ...args], { cwd: projectWithConfig(config), env })
}

describeNeeding(command('pipx'), 'real pipx through resilient', () => {
  it('installs an app from the mirror after the index fails with 503, by PIP_INDEX_URL', async () => {
    const primary = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels })
    const run = await pipx(['install', 'demo-app'], { pypi: { index: primary.url, mirrors: [mirror.url] } })
    expect(run.exitCode, run.all).toBe(0)
    expect(execFileSync(join(run.home, '.local', 'bin', 'demo-app'), { encoding: 'utf8' })).toBe('demo-app 1.0\n')
    // A 503 is waited on once, then the mirror (docs/plan.md).
    expect(run.attempts.map(attempt => attempt.diagnosis?.category ?? null)).toEqual(['server_error', 'server_error', null])
    expect(run.attempts[2]?.command).toEqual([`PIP_INDEX_URL=${mirror.url}`, `UV_INDEX_URL=${mirror.url}`, 'pipx', 'install', 'demo-app'])
    expect(mirror.requests).toContain('/simple/demo-app/')
    // The mirror is not recorded for later upgrades: pipx stores only its own --index-url/--pip-args.
    const metadata = readFileSync(join(run.home, '.local', 'pipx', 'venvs', 'demo-app', 'pipx_metadata.json'), 'utf8')
    expect(metadata).not.toContain(String(mirror.port))
  })

  it('never sends the install of a private index (PIP_INDEX_URL) to a mirror', async () => {
    const corp = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels })
    const run = await pipx(['install', 'demo-app'], { maxAttempts: 2, pypi: { mirrors: [mirror.url] } }, { PIP_INDEX_URL: corp.url })
    expect(run.exitCode).toBe(1)
    expect(run.attempts).toHaveLength(2)
    expect(run.attempts.map(attempt => attempt.command.filter(word => word.includes('INDEX_URL')))).toEqual([[], []])
    expect(mirror.requests).toEqual([])
    expect(corp.requests).toContain('/simple/demo-app/')
  })
})

describeNeeding(command('pipx'), 'pipx --dry-run', () => {
  it.each([['install'], ['upgrade']])('plans pipx %s with the mirror in the environment', async verb => {
    // The fake mirror host is the tester's own: the project config is trusted.
    const env = isolatedEnv({ RESILIENT_TRUST_PROJECT_CONFIG: '1' })
    const run = await runCli(['--dry-run', 'pipx', verb, 'black'], { cwd: projectWithConfig({ pypi: { mirrors: ['https://pypi-mirror.test/simple'] } }), env })
    expect(run.stdout.split('\n').filter(Boolean)).toEqual([
      `pipx ${verb} black`,
      `PIP_INDEX_URL=https://pypi-mirror.test/simple UV_INDEX_URL=https://pypi-mirror.test/simple pipx ${verb} black`,
    ])
  })
})
