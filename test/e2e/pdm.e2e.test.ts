import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli, runWithReport } from '../helpers/run-cli.js'
import { dryRun, PYPI_MIRROR, runWithFakes } from '../helpers/fake-tools.js'
import { projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'
import { command, describeNeeding } from '../helpers/requirements.js'

// pdm cannot be installed here: a fake pdm replays pdm's real "[ReadTimeout]: The read operation timed out" (pdm-project/pdm#2914).
const config = { pypi: { mirrors: [PYPI_MIRROR] } }
const pyproject = '[project]\nname = "p"\nversion = "0"\n'

describe('pdm through resilient (replayed output)', () => {
  it('recovers from a read timeout by PDM_PYPI_URL', async () => {
    const run = await runWithFakes(['pdm', 'install'], { config, healthy: PYPI_MIRROR, files: { 'pyproject.toml': pyproject } })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.attempts.map(call => call.argv)).toEqual([['install'], ['install']])
    expect(run.added).toEqual([{}, { PDM_PYPI_URL: PYPI_MIRROR }])
    expect(run.report?.attempts[0]?.diagnosis?.category).toBe('timeout')
  })

  it('never replaces a private source named pypi', async () => {
    const files = { 'pyproject.toml': `${pyproject}[[tool.pdm.source]]\nname = "pypi"\nurl = "https://pypi.corp.example/simple"\n` }
    const run = await runWithFakes(['--max-attempts', '2', 'pdm', 'add', 'requests'], { config, healthy: PYPI_MIRROR, files })
    expect(run.exitCode).toBe(1)
    expect(run.added).toEqual([{}, {}])
  })

  it('prints the planned attempts with the mirror in the environment', async () => {
    const run = await dryRun(['pdm', 'add', 'requests'], { config })
    expect(run.lines).toEqual(['pdm add requests', `PDM_PYPI_URL=${PYPI_MIRROR} pdm add requests`])
  })
})

// Real pdm (Debian's python3-pdm 2.2.1) through the built CLI, against PEP 503 servers on 127.0.0.1.

const wheels = [buildWheel('demo-pkg', '1.0')]
const server = pypiServers()

async function realPdm(args: string[], cwd: string) {
  // No keyring: pdm would ask the desktop keyring for index credentials.
  const env = isolatedEnv({ PYTHON_KEYRING_BACKEND: 'keyring.backends.null.Keyring' })
  return runWithReport(args, { cwd, env })
}

function pdmProject(config: unknown, extra = ''): string {
  const dir = projectWithConfig(config)
  writeFileSync(join(dir, 'pyproject.toml'), `[project]\nname = "demo-project"\nversion = "0.1.0"\nrequires-python = ">=3.9"\ndependencies = ["demo-pkg"]\n${extra}`)
  return dir
}

describeNeeding(command('pdm'), 'real pdm through resilient', () => {
  it('locks from the mirror after the index fails with 503, by PDM_PYPI_URL', async () => {
    const primary = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels })
    const cwd = pdmProject({ pypi: { index: primary.url, mirrors: [mirror.url] } })
    const run = await realPdm(['pdm', 'lock'], cwd)
    expect(run.exitCode, run.all).toBe(0)
    // A 503 is waited on once, then the mirror (docs/plan.md).
    expect(run.attempts.map(attempt => attempt.diagnosis?.category ?? null)).toEqual(['server_error', 'server_error', null])
    const onPrimary = [`PDM_PYPI_URL=${primary.url}`, 'pdm', 'lock']
    expect(run.attempts.map(attempt => attempt.command)).toEqual([onPrimary, onPrimary, [`PDM_PYPI_URL=${mirror.url}`, 'pdm', 'lock']])
    const lock = readFileSync(join(cwd, 'pdm.lock'), 'utf8')
    expect(lock).toMatch(/name = "demo-pkg"/)
    // pdm before 2.8 records every file's URL in pdm.lock: install and sync then download from there, so no mirror
    // can serve them, and resilient says so instead of trying one.
    if (/\{url = "/.test(lock)) {
      const plan = await runCli(['--dry-run', '--verbose', 'pdm', 'install'], { cwd, env: isolatedEnv() })
      expect(plan.stdout).toBe('pdm install')
      expect(plan.stderr).toMatch(/no mirror will be used: pdm\.lock pins the download URL of every file/)
    }
  })

  it('never sends a private source named pypi elsewhere', async () => {
    const corp = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels })
    const cwd = pdmProject({ maxAttempts: 2, pypi: { mirrors: [mirror.url] } }, `[[tool.pdm.source]]\nname = "pypi"\nurl = "${corp.url}"\n`)
    const run = await realPdm(['pdm', 'lock'], cwd)
    expect(run.exitCode).toBe(1)
    expect(run.attempts.map(attempt => attempt.command)).toEqual([['pdm', 'lock'], ['pdm', 'lock']])
    expect(mirror.requests).toEqual([])
    expect(corp.requests).toContain('/simple/demo-pkg/')
  })
})
