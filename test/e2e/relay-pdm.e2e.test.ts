import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { expect, it } from 'vitest'
import { buildWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli, runWithReport } from '../helpers/run-cli.js'
import { projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'
import { command, describeNeeding } from '../helpers/requirements.js'
import { pipCredentials, pypiSource, relays } from '../helpers/relay-setup.js'

// Real pdm (Debian's python3-pdm 2.2.1) and the relay. pdm 2.2 records each file's URL in pdm.lock (cli/utils.py
// format_lockfile), so resilient does not take its lock-writing commands through the relay; pdm 2.8+ (file names
// and hashes only) is not installable here.
const wheels = [buildWheel('demo-pkg', '1.0'), buildWheel('demo-pkg', '2.0')]
const server = pypiServers()
const relay = relays()
const PDM = command('pdm')
// No keyring: pdm would ask the desktop keyring for index credentials. No update check: pdm 2.2 asks the index for
// its own page after the command and dies of an index that answers only 503 (core.py check_update), these servers
// having no pdm to offer.
const pdmEnv = (extra: Record<string, string> = {}) => isolatedEnv({ PYTHON_KEYRING_BACKEND: 'keyring.backends.null.Keyring', PDM_CHECK_UPDATE: 'false', ...extra })
const PYPROJECT = '[project]\nname = "demo-project"\nversion = "0.1.0"\nrequires-python = ">=3.9"\ndependencies = ["demo-pkg"]\n'

function project(config?: unknown): string {
  const dir = config ? projectWithConfig(config) : mkdtempSync(join(tmpdir(), 'resilient-pdm-plain-'))
  writeFileSync(join(dir, 'pyproject.toml'), PYPROJECT)
  return dir
}

describeNeeding(PDM, 'real pdm and the relay', () => {
  it('pdm reaches the relay by PDM_PYPI_URL with the secret from NETRC, and its pages come from the mirror once the index failed; pdm 2.2 then records the relay\'s URLs', async () => {
    const index = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels })
    const front = await relay({ protocol: 'pypi', sources: [pypiSource(index, 'index'), pypiSource(mirror, 'mirror')], pages: { failover: true, silentMs: 5000 } })
    const cwd = project()
    const result = await execa('pdm', ['lock'], { cwd, reject: false, all: true, env: pdmEnv({ PDM_PYPI_URL: front.indexUrl, ...pipCredentials() }), extendEnv: false, timeout: 120_000 })
    expect(result.exitCode, result.all).toBe(0)
    expect(front.tally().mirror!.served).toBeGreaterThan(0)
    // Why pdm 2.2's lock-writing commands do not go through the relay: the lockfile would name it.
    expect(readFileSync(join(cwd, 'pdm.lock'), 'utf8')).toContain(`url = "http://127.0.0.1:${front.port}/`)
  })

  it('pdm lock through resilient with the relay on: not relayed (pdm 2.2), and pdm.lock is plain pdm\'s byte for byte', async () => {
    const index = await server({ wheels })
    const plainDir = project()
    const plain = await execa('pdm', ['lock'], { cwd: plainDir, reject: false, all: true, env: pdmEnv({ PDM_PYPI_URL: index.url }), extendEnv: false, timeout: 120_000 })
    expect(plain.exitCode, plain.all).toBe(0)
    const cwd = project({ relay: true, pypi: { index: index.url, mirrors: [(await server({ wheels })).url] } })
    const run = await runWithReport(['--verbose', 'pdm', 'lock'], { cwd, env: pdmEnv() })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.all).toMatch(/no relay: pdm 2\.2 records download URLs in pdm\.lock \(2\.8 and later do not\)/)
    expect(run.attempts.map(attempt => attempt.command)).toEqual([[`PDM_PYPI_URL=${index.url}`, 'pdm', 'lock']])
    expect(readFileSync(join(cwd, 'pdm.lock'), 'utf8')).toBe(readFileSync(join(plainDir, 'pdm.lock'), 'utf8'))
  })

  it('--dry-run shows the relay\'s attempt for pdm sync, pointed by PDM_PYPI_URL with the secret in a netrc', async () => {
    const cwd = project({ relay: true, pypi: { index: 'http://127.0.0.1:9/simple', mirrors: ['http://127.0.0.1:8/simple'] } })
    const run = await runCli(['-n', 'pdm', 'sync'], { cwd, env: pdmEnv() })
    expect(run.stderr).toMatch(/# attempt 1 of 2 on 127\.0\.0\.1:9 — .*; through resilient's relay on 127\.\d+\.\d+\.\d+:\d+, which asks for pages of 127\.0\.0\.1:9 \(of 127\.0\.0\.1:8 only once 127\.0\.0\.1:9 fails\)/)
    expect(run.stdout.split('\n')[0]).toMatch(/^PDM_PYPI_URL=http:\/\/127\.[\d.]+:\d+\/simple\/ NETRC=\S+ pdm sync/)
    // A private index (PDM_PYPI_URL) never goes through it.
    const own = await runCli(['-n', '--verbose', 'pdm', 'sync'], { cwd, env: pdmEnv({ PDM_PYPI_URL: 'https://pypi.corp.example/simple' }) })
    expect(own.stderr).toMatch(/no relay: .*not a public index/)
    expect(own.stdout).not.toMatch(/NETRC|127\./)
  })
})
