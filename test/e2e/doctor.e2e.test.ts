import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { ptySkipReason } from '../helpers/pty.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'

// `resilient doctor` on a fresh machine: an isolated HOME with no config, no state, no shims.
describe('resilient doctor', () => {
  it('explains what it finds on a fresh machine and exits 0', async () => {
    const env = isolatedEnv()
    const result = await runCli(['doctor'], { env, cwd: env.HOME })
    expect(result.exitCode, String(result.all)).toBe(0)
    const out = String(result.stdout)
    expect(out).toMatch(/^resilient \d+\.\d+\.\d+, node v\d+/)
    expect(out).toMatch(/✔ pip\s+\S+ → \/\S+\n\s+pip \d+\.\d+/)
    expect(out).toContain('index https://pypi.org/simple (pip default); mirrors: tuna')
    expect(out).toContain('Proxy\n  none set')
    expect(out).toContain('files: none (defaults only)')
    expect(out).toContain('"maxAttempts":4')
    expect(out).toContain('Shims\n  none installed')
    expect(out).toContain(`${env.RESILIENT_STATE_DIR} (not created yet, writable)`)
    expect(out).toContain('run logs: none yet')
    expect(out).toMatch(/mirror health: nothing recorded yet on this network/)
    // A machine that could not build node-pty (no compiler or Node headers) gets a warning, and nothing else.
    if (!ptySkipReason) expect(out).toContain('No problems found.')
    else expect(out).toMatch(/! node-pty is missing or not built[^]*Nothing is broken; the ! lines are worth a look\./)
  })

  it('names where the index comes from, with credentials hidden', async () => {
    const env = isolatedEnv({ PIP_INDEX_URL: 'https://deploy:Sup3rS3cret@pypi.corp.example/simple' })
    const result = await runCli(['doctor'], { env })
    expect(result.stdout).toContain('index https://****@pypi.corp.example/simple (PIP_INDEX_URL)')
    expect(result.all).not.toContain('Sup3rS3cret')
  })

  it('reads the index from pip.conf and says which file', async () => {
    const env = isolatedEnv()
    const file = join(env.HOME!, 'pip.conf')
    writeFileSync(file, '[global]\nindex-url = https://pypi.corp.example/simple\n')
    const result = await runCli(['doctor'], { env: { ...env, PIP_CONFIG_FILE: file } })
    expect(result.stdout).toContain(`index https://pypi.corp.example/simple (${file} [global] index-url)`)
  })

  it('exits 1 on a broken config file, with the fix', async () => {
    const cwd = projectWithConfig({ maxAttempts: 'four' })
    const result = await runCli(['doctor'], { cwd })
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toMatch(/✖ .*\.resilientrc\.json: invalid value for "maxAttempts"/)
    expect(result.stdout).toMatch(/ {2}→ /)
    expect(result.stdout).toContain('Something is broken')
  })

  it('exits 1 on a proxy variable that is not a URL, shows proxies redacted', async () => {
    const env = isolatedEnv({ HTTPS_PROXY: 'http://me:Pr0xyPass@proxy.test:3128', HTTP_PROXY: 'http://:::' })
    const result = await runCli(['doctor'], { env })
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toContain('HTTPS_PROXY=http://****@proxy.test:3128')
    expect(result.stdout).toMatch(/✖ HTTP_PROXY=http:\/\/::: is not a proxy URL/)
    expect(result.all).not.toContain('Pr0xyPass')
  })

  it('warns about shims that are installed but not on PATH', async () => {
    const env = isolatedEnv({ SHELL: '/bin/zsh' })
    const install = await runCli(['shim', 'install', 'pip'], { env })
    expect(install.exitCode).toBe(0)
    const result = await runCli(['doctor'], { env })
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(/shims: pip \(not on PATH: inactive\)/)
    expect(result.stdout).toMatch(/! Shims are installed in .* but it is not on PATH/)
    expect(result.stdout).toContain('Add to ~/.zshrc: export PATH=')
  })

  it('exits 1 when the state directory cannot be written', async () => {
    const env = isolatedEnv()
    const state = join(env.HOME!, 'ro')
    mkdirSync(state, { mode: 0o500 })
    const result = await runCli(['doctor', '--json'], { env: { ...env, RESILIENT_STATE_DIR: join(state, 'resilient') } })
    // root can write anywhere: then the check rightly finds nothing broken.
    if (process.getuid?.() === 0) return expect(JSON.parse(String(result.stdout)).broken).toBe(false)
    expect(result.exitCode).toBe(1)
    expect(JSON.parse(String(result.stdout)).problems[0]).toMatchObject({ severity: 'broken', area: 'state' })
  })

  it('lists what `resilient run` installed on its own, newest first', async () => {
    const env = isolatedEnv()
    mkdirSync(env.RESILIENT_STATE_DIR!, { recursive: true })
    const entry = (at: string, module: string, pkg: string) => ({ at, ecosystem: 'python', module, package: pkg, tier: 'allowlist', consent: 'yes-flag', environment: '/p/.venv/bin/python', command: 'pip install x', script: 'python app.py', cwd: '/p' })
    writeFileSync(join(env.RESILIENT_STATE_DIR!, 'auto-installed.json'), JSON.stringify({ version: 1, entries: [entry('2026-01-01T00:00:00Z', 'yaml', 'PyYAML'), entry('2026-02-01T00:00:00Z', 'cv2', 'opencv-python')] }))
    const result = await runCli(['doctor'], { env })
    expect(result.stdout).toMatch(/auto-installed packages \(newest first; review them\):\n {4}2026-02-01T00:00:00Z {2}opencv-python \(for import cv2, allowlist, consent: yes-flag\) into \/p\/\.venv\/bin\/python\n {4}2026-01-01T00:00:00Z {2}PyYAML/)
  })

  it('shows the mirror health that runs recorded on this network', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'resilient-fake-pip-'))
    // Times out unless sent to the mirror: one failure on the primary, one success on the mirror.
    writeFileSync(join(bin, 'pip'), `#!/bin/sh
case "$*" in *mirror.test*) exit 0 ;; esac
echo "WARNING: Retrying (Retry(total=0)) after connection broken by 'ReadTimeoutError(\\"HTTPSConnectionPool(host='primary.test', port=443): Read timed out.\\")': /simple/x/" >&2
exit 1
`, { mode: 0o755 })
    // The fake hosts are the tester's own: the project config is trusted.
    const base = isolatedEnv({ RESILIENT_TRUST_PROJECT_CONFIG: '1' })
    const env = { ...base, PATH: `${bin}:${base.PATH}` }
    const cwd = projectWithConfig({ pypi: { index: 'https://primary.test/simple', mirrors: ['https://mirror.test/simple'] } })
    expect((await runCli(['pip', 'download', 'x'], { env, cwd })).exitCode).toBe(0)
    const result = await runCli(['doctor'], { env, cwd })
    expect(result.stdout).toMatch(/mirror health on this network:\n/)
    expect(result.stdout).toMatch(/ {4}https:\/\/mirror\.test\/simple: ok \(1 of 1 recent ok/)
    expect(result.stdout).toMatch(/ {4}https:\/\/primary\.test\/simple: .*0 of 1 recent ok.*timeout/)
  })

  // rustup's proxy with no default toolchain: `cargo --version` exits 1 (message from rust-lang/rustup#4102).
  it('reports a tool whose --version fails as broken, with the first line of its error, and exits 1', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'resilient-fake-cargo-'))
    writeFileSync(join(bin, 'cargo'), `#!/bin/sh
echo "error: rustup could not choose a version of cargo to run, because one wasn't specified explicitly, and no default is configured." >&2
echo "help: run 'rustup default stable' to download the latest stable release of Rust and set it as your default toolchain." >&2
exit 1
`, { mode: 0o755 })
    const base = isolatedEnv()
    const env = { ...base, PATH: `${bin}:${base.PATH}` }
    const result = await runCli(['doctor'], { env })
    expect(result.exitCode, result.all).toBe(1)
    expect(result.stdout).toContain(`✖ cargo      cargo → ${join(bin, 'cargo')}\n`)
    expect(result.stdout).toContain("`cargo --version` failed: error: rustup could not choose a version of cargo to run, because one wasn't specified explicitly, and no default is configured.\n")
    expect(result.stdout).not.toMatch(/✔ cargo/)
    expect(result.stdout).toMatch(/✖ cargo is on PATH \(.*\) but cannot start/)
    expect(result.stdout).toMatch(/→ Run `cargo --version` to see the whole error, then repair or reinstall cargo/)
    const json = JSON.parse((await runCli(['doctor', '--json'], { env })).stdout)
    expect(json.broken).toBe(true)
    expect(json.sections['Package managers'].find((tool: { tool: string }) => tool.tool === 'cargo')).toMatchObject({ found: true, broken: expect.stringMatching(/^error: rustup could not choose/) })
  })

  it('--json prints one object with every section', async () => {
    const result = await runCli(['doctor', '--json'])
    const report = JSON.parse(String(result.stdout))
    expect(Object.keys(report.sections)).toEqual(['Package managers', 'Tool settings from the environment', 'Proxy', 'resilient config', 'Shims', 'Terminal', 'State'])
    expect(report.sections['Package managers'].find((tool: { tool: string }) => tool.tool === 'pip')).toMatchObject({ found: true, index: { url: 'https://pypi.org/simple' } })
    expect(report.broken).toBe(false)
  })
})
