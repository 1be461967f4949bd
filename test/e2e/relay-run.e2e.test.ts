import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildTarball, startNpmRegistry, type NpmRegistry } from '../support/npm-registry.js'
import type { FaultChoice } from '../../src/demo/fault-server.js'
import { buildWheel, type BuiltWheel } from '../../src/demo/wheel.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { filesIn, projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'
import { proxy } from '../helpers/relay-setup.js'
import { itNeeding, PYENV, pyenvInstalled } from '../helpers/requirements.js'


// The relay as resilient runs it: the built CLI, real pip and npm, local servers with faults.
let wheels: BuiltWheel[]
beforeAll(() => {
  wheels = [buildWheel('demo-pkg', '2.0', { paddingBytes: 6_000_000 })]
})
const server = pypiServers()
const registries: NpmRegistry[] = []
afterEach(async () => {
  await Promise.all(registries.splice(0).map(registry => registry.close()))
})
const PACKAGES = [buildTarball({ name: 'left-pad-x', version: '1.0.0' }), buildTarball({ name: '@acme/util', version: '2.0.0', dependencies: { 'left-pad-x': '^1.0.0' } })]
async function registry(fault?: FaultChoice): Promise<NpmRegistry> {
  const started = await startNpmRegistry({ packages: PACKAGES, fault })
  registries.push(started)
  return started
}
const report = (home: string) => JSON.parse(readFileSync(join(home, 'report.json'), 'utf8'))

describe('resilient through its relay', () => {
  it('pip: a wheel that breaks half-way on the index is resumed from the mirror within one attempt, booked per host', async () => {
    const index = await server({ wheels, fault: ({ isFile }) => isFile ? { kind: 'truncate', atFraction: 0.5 } : { kind: 'ok' } })
    const mirror = await server({ wheels })
    const cwd = projectWithConfig({ relay: true, pypi: { index: index.url, mirrors: [mirror.url] } })
    const env = isolatedEnv()
    const dest = mkdtempSync(join(tmpdir(), 'resilient-relay-dl-'))
    const result = await runCli(['--report', join(env.HOME!, 'report.json'), 'python3', '-m', 'pip', 'download', '--no-deps', '-d', dest, 'demo-pkg'], { cwd, env })
    expect(result.exitCode, result.all).toBe(0)
    expect(filesIn(dest)).toEqual([wheels[0]!.filename])
    expect(result.stderr).toMatch(/demo_pkg-2\.0-py3-none-any\.whl: 127\.0\.0\.1:\d+ broke at 3 MB of 6 MB, resuming from 127\.0\.0\.1:\d+/)
    const { attempts, relay } = report(env.HOME!)
    expect(attempts).toHaveLength(1)
    // The attempt's throughput is the relay's own count of what it passed to pip (about 6 MB), not `ss` samples.
    expect(attempts[0].throughput).toMatchObject({ counter: 'relay' })
    expect(attempts[0].throughput.bytes).toBeGreaterThan(5_900_000)
    expect(relay.sources[`127.0.0.1:${mirror.port}`].resumedBytes).toBeGreaterThan(2_900_000)
    expect(relay.sources[`127.0.0.1:${index.port}`].failures).toEqual({ truncated: 1 })
    // The secret never shows: not on argv, not in the report.
    expect(JSON.stringify(attempts)).not.toMatch(/resilient:[^@]*@/)
    const state = readFileSync(join(env.RESILIENT_STATE_DIR!, 'state.json'), 'utf8')
    expect(state).toContain('"category": "connection"')
  })

  itNeeding(pyenvInstalled, 'pip behind a pyenv shim goes through the relay: the shim is followed to its interpreter without starting pip, and a break is resumed in one attempt', async () => {
    const index = await server({ wheels, fault: ({ isFile }) => isFile ? { kind: 'truncate', atFraction: 0.5 } : { kind: 'ok' } })
    const mirror = await server({ wheels })
    const cwd = projectWithConfig({ relay: true, pypi: { index: index.url, mirrors: [mirror.url] } })
    // A pyenv root as pyenv lays it out, its version a virtual environment of this machine's python3 with pip.
    const root = mkdtempSync(join(tmpdir(), 'resilient-pyenv-'))
    await execa('python3', ['-m', 'venv', '--without-pip', '--system-site-packages', join(root, 'versions', 'app')], { env: isolatedEnv() })
    writeFileSync(join(root, 'versions', 'app', 'bin', 'pip'), `#!${join(root, 'versions', 'app', 'bin', 'python')}\nimport sys\nfrom pip._internal.cli.main import main\nsys.exit(main())\n`, { mode: 0o755 })
    mkdirSync(join(root, 'shims'))
    writeFileSync(join(root, 'shims', 'pip'), `#!/usr/bin/env bash\nset -e\nprogram="\${0##*/}"\nexport PYENV_ROOT="${root}"\nexec "${PYENV}" exec "$program" "$@"\n`, { mode: 0o755 })
    writeFileSync(join(cwd, '.python-version'), 'app\n')
    const env = isolatedEnv({ PATH: `${join(root, 'shims')}:${process.env.PATH}`, PYENV_ROOT: root })
    const dest = mkdtempSync(join(tmpdir(), 'resilient-relay-dl-'))
    const result = await runCli(['-v', '--report', join(env.HOME!, 'report.json'), 'pip', 'download', '--no-deps', '-d', dest, 'demo-pkg'], { cwd, env })
    expect(result.exitCode, result.all).toBe(0)
    expect(filesIn(dest)).toEqual([wheels[0]!.filename])
    expect(result.stderr).not.toMatch(/not sure which index|pip says|no relay/)
    expect(result.stderr).toMatch(/resuming from 127\.0\.0\.1/)
    expect(report(env.HOME!).attempts).toHaveLength(1)
  })

  it('npm: the registry dies after 3 requests; one attempt, and package-lock.json as plain npm writes it', async () => {
    const plainProject = mkdtempSync(join(tmpdir(), 'resilient-relay-plain-'))
    writeFileSync(join(plainProject, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', private: true }))
    let served = 0
    let dying = false
    const index = await registry(() => dying && ++served > 3 ? { kind: 'blackhole' } : { kind: 'ok' })
    const mirror = await registry()
    const plain = await execa('npm', ['install', '@acme/util', '--no-audit', `--registry=${index.url}`], { cwd: plainProject, env: isolatedEnv(), extendEnv: false, reject: false })
    expect(plain.exitCode).toBe(0)
    dying = true
    const cwd = projectWithConfig({ relay: true, npm: { index: index.url, mirrors: [mirror.url] } })
    writeFileSync(join(cwd, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', private: true }))
    const env = isolatedEnv()
    const result = await runCli(['--report', join(env.HOME!, 'report.json'), 'npm', 'install', '@acme/util', '--no-audit'], { cwd, env })
    expect(result.exitCode, result.all).toBe(0)
    expect(report(env.HOME!).attempts).toHaveLength(1)
    expect(readFileSync(join(cwd, 'package-lock.json'), 'utf8')).toBe(readFileSync(join(plainProject, 'package-lock.json'), 'utf8'))
    expect(existsSync(join(cwd, 'node_modules', '@acme', 'util', 'package.json'))).toBe(true)
  })

  it('pip behind HTTP_PROXY: pip reaches the relay directly, its secret never reaches the proxy; the relay goes through the proxy as pip would (absolute-form GET for a plain-http index, never CONNECT, which the proxy allows to 443 only)', async () => {
    const index = await server({ wheels })
    const through = await proxy({ connectPorts: [443] })
    try {
      const cwd = projectWithConfig({ relay: true, pypi: { index: index.url, mirrors: [] } })
      const dest = mkdtempSync(join(tmpdir(), 'resilient-relay-dl-'))
      const result = await runCli(['python3', '-m', 'pip', 'download', '--no-deps', '-d', dest, 'demo-pkg'], { cwd, env: isolatedEnv({ HTTP_PROXY: through.url }) })
      expect(result.exitCode, result.all).toBe(0)
      expect(through.tunnels).toEqual([])
      expect(through.refused).toEqual([])
      expect(through.forwarded.length).toBeGreaterThan(0)
      expect(new Set(through.forwarded.map(request => new URL(request.url).host))).toEqual(new Set([`127.0.0.1:${index.port}`]))
      // Only the relay's own requests reach the proxy: never the relay's secret.
      expect(through.forwarded.filter(request => request.authorization)).toEqual([])
    } finally {
      through.close()
    }
  })

  it('--dry-run says which attempt goes through the relay and which sources stand behind it; --no-relay and a private index do not', async () => {
    const cwd = projectWithConfig({ relay: true, pypi: { index: 'http://127.0.0.1:9/simple', mirrors: ['http://127.0.0.1:8/simple'] } })
    const relayed = await runCli(['-n', 'pip', 'install', 'x'], { cwd })
    expect(relayed.stderr).toMatch(/# attempt 1 of 2 on 127\.0\.0\.1:9 — .*; through resilient's relay on 127\.\d+\.\d+\.\d+:\d+, which asks for pages of 127\.0\.0\.1:9 \(of 127\.0\.0\.1:8 only once 127\.0\.0\.1:9 fails\), and for files 127\.0\.0\.1:9, 127\.0\.0\.1:8 per request/)
    // A source of the person's own beside the index: no mirror attempt, and the relay keeps every page on the index.
    const beside = await runCli(['-n', 'pip', 'install', '--extra-index-url', 'https://pypi.corp.example/simple', 'x'], { cwd })
    expect(beside.stderr).toMatch(/# attempt 1 of 1 on 127\.0\.0\.1:9 — .*which asks for pages of 127\.0\.0\.1:9 only, and for files 127\.0\.0\.1:9, 127\.0\.0\.1:8 per request/)
    expect(relayed.stdout.split('\n')[0]).toMatch(/^NETRC=\S+ pip install x --index-url http:\/\/127\.\d+\.\d+\.\d+:\d+\/simple\/ --trusted-host 127\.\d+\.\d+\.\d+:\d+/)
    expect(relayed.stdout).not.toMatch(/resilient:/)
    const off = await runCli(['-n', '--no-relay', 'pip', 'install', 'x'], { cwd })
    expect(off.stderr).not.toMatch(/relay/)
    const own = await runCli(['-n', '--verbose', 'pip', 'install', '--index-url', 'https://pypi.corp.example/simple', 'x'], { cwd })
    expect(own.stderr).not.toMatch(/through resilient's relay/)
    expect(own.stderr).toMatch(/no relay: .*not a public index/)
  })
})
