import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { execa, execaSync } from 'execa'
import { afterEach, expect } from 'vitest'
import { command, describeNeeding, itNeeding } from '../helpers/requirements.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { buildCrate, startCratesRegistry, type Crate, type CratesRegistry, type CratesRegistryOptions } from '../support/crates-registry.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'
import type { Fault } from '../../src/demo/fault-server.js'

// The real cargo through the built CLI with the relay on: source replacement of crates-io by the relay (a registry
// named resilient-relay, in a --config file of the run's private directory, its token the relay's secret), in front
// of sparse registries on 127.0.0.1 with faults. CARGO_HOME is a fresh folder: nothing cached, ~/.cargo untouched.
const CARGO = command('cargo')
const CRATES = [buildCrate('tinyanswer', '0.1.0')]
const RUSTUP_HOME = process.env.RUSTUP_HOME ?? join(userInfo().homedir, '.rustup')
const cargoEnv = () => {
  const base = isolatedEnv()
  return { ...base, RUSTUP_HOME, CARGO_HOME: join(base.HOME!, '.cargo'), PATH: `${join(userInfo().homedir, '.cargo', 'bin')}:${base.PATH}` }
}
const OK: Fault = { kind: 'ok' }

/** A library depending on `dependencies` (Cargo.toml lines), with resilient's config: the relay on, these sources. */
function project(index: { url: string }, mirrors: { url: string }[], { dependencies = 'tinyanswer = "0.1"\n', config = {} } = {}): string {
  const dir = projectWithConfig({ relay: true, crates: { index: index.url, mirrors: mirrors.map(mirror => mirror.url) }, ...config })
  writeFileSync(join(dir, 'Cargo.toml'), `[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n${dependencies}`)
  mkdirSync(join(dir, 'src'))
  writeFileSync(join(dir, 'src', 'lib.rs'), 'pub fn f() -> u32 { tinyanswer::answer() }\n')
  return dir
}

/** The plain cargo's Cargo.lock for the same project, its crates-io replaced by `healthy` as a person's own config would. */
async function plainCargoLock(dir: string, healthy: CratesRegistry): Promise<string> {
  const plainDir = mkdtempSync(join(tmpdir(), 'resilient-cargo-plain-'))
  cpSync(dir, plainDir, { recursive: true, filter: source => !source.endsWith('Cargo.lock') && !source.endsWith('target') })
  const plain = await execa('cargo', ['--config', 'source.crates-io.replace-with="own"', '--config', `source.own.registry="sparse+${healthy.url}"`, 'fetch'],
    { cwd: plainDir, env: cargoEnv(), extendEnv: false, reject: false, all: true })
  expect(plain.exitCode, plain.all).toBe(0)
  return readFileSync(join(plainDir, 'Cargo.lock'), 'utf8')
}
const cargoLock = (dir: string) => readFileSync(join(dir, 'Cargo.lock'), 'utf8')
const indexFiles = (registry: CratesRegistry) => registry.requests.filter(path => path !== '/config.json' && !path.startsWith('/dl/'))

describeNeeding(CARGO, 'real cargo through the relay', () => {
  const registries: CratesRegistry[] = []
  afterEach(async () => { await Promise.all(registries.splice(0).map(registry => registry.close())) })
  const start = async (...faults: Fault[]) => {
    const started = await Promise.all(faults.map(fault => startCratesRegistry(CRATES, { fault })))
    registries.push(...started)
    return started as [CratesRegistry, CratesRegistry, ...CratesRegistry[]]
  }
  const registry = async (crates: readonly Crate[], options: CratesRegistryOptions = {}) => {
    const started = await startCratesRegistry(crates, options)
    registries.push(started)
    return started
  }

  itNeeding(CARGO, 'one 503 on every request of the index: the crate from the mirror in the first attempt; Cargo.lock byte for byte the plain cargo\'s', async () => {
    const [index, mirror, healthy] = await start({ kind: 'status', status: 503 }, { kind: 'ok' }, { kind: 'ok' })
    const dir = project(index, [mirror])
    const result = await runCli(['-v', 'cargo', 'fetch'], { cwd: dir, env: cargoEnv() })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toContain('done in 1 attempt')
    // The secret is in the environment and masked; argv names only the private config file.
    expect(result.stderr).toMatch(/CARGO_REGISTRIES_RESILIENT_RELAY_TOKEN=\*+ cargo --config \S+cargo-relay\.toml fetch/)
    expect(mirror.requests).toContain('/dl/tinyanswer/0.1.0/download')
    expect(cargoLock(dir)).toBe(await plainCargoLock(dir, healthy!))
    expect(cargoLock(dir)).toContain('source = "registry+https://github.com/rust-lang/crates.io-index"')
  })

  itNeeding(CARGO, 'a dead index: the run completes on the mirror in one attempt', async () => {
    const [index, mirror] = await start({ kind: 'blackhole' }, { kind: 'ok' })
    const result = await runCli(['-v', 'cargo', 'fetch'], { cwd: project(index, [mirror]), env: cargoEnv() })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toContain('done in 1 attempt')
    expect(mirror.requests).toContain('/dl/tinyanswer/0.1.0/download')
  })

  itNeeding(CARGO, 'a reset on every request of the index: the mirror, in one attempt', async () => {
    const [index, mirror] = await start({ kind: 'reset' }, { kind: 'ok' })
    const result = await runCli(['-v', 'cargo', 'fetch'], { cwd: project(index, [mirror]), env: cargoEnv() })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toContain('done in 1 attempt')
  })

  itNeeding(CARGO, 'a healthy index: its pages and its crate, nothing asked of the mirror but where its downloads are', async () => {
    const [index, mirror] = await start({ kind: 'ok' }, { kind: 'ok' })
    const result = await runCli(['-v', 'cargo', 'fetch'], { cwd: project(index, [mirror]), env: cargoEnv() })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toContain('cargo-relay.toml')
    expect(index.requests).toEqual(expect.arrayContaining(['/config.json', '/ti/ny/tinyanswer', '/dl/tinyanswer/0.1.0/download']))
    expect(mirror.requests.filter(path => path !== '/config.json')).toEqual([])
  })

  itNeeding(CARGO, 'a .crate that breaks at 80 % on the index is resumed on the mirror in one attempt: at most 1.1× its bytes fetched, Cargo.lock the plain cargo\'s', async () => {
    // 1.5 MB of incompressible data: a transfer that breaks at 80 % has something to resume. The relay hedges a
    // file on another source only after its first second of silence (no file of the index answered yet), so the
    // mirror is asked for the rest of the file, not for all of it, unless the index's headers took that long.
    const big = [buildCrate('tinyanswer', '0.1.0', 42, 1_500_000)]
    const index = await registry(big, { fault: ({ isFile }) => isFile ? { kind: 'truncate', atFraction: 0.8 } : OK })
    const mirror = await registry(big)
    const healthy = await registry(big)
    const dir = project(index, [mirror])
    const result = await runCli(['-v', 'cargo', 'fetch'], { cwd: dir, env: cargoEnv() })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toContain('done in 1 attempt')
    expect(result.stderr).toContain(`download: 127.0.0.1:${index.port} broke at 1 MB of 2 MB, resuming from 127.0.0.1:${mirror.port}`)
    // Pages and headers are a few kB; the crate itself once, plus what the break cost.
    expect(index.bytesSent() + mirror.bytesSent()).toBeLessThan(1.1 * big[0]!.bytes.length + 20_000)
    expect(cargoLock(dir)).toBe(await plainCargoLock(dir, healthy))
  })

  // Two crates, so that cargo asks two index files at once and the relay waits out two 429s side by side.
  const TWO = [buildCrate('tinyanswer', '0.1.0'), buildCrate('otheranswer', '0.2.0', 7)]
  const BOTH = 'tinyanswer = "0.1"\notheranswer = "0.2"\n'
  for (const withMirror of [false, true]) itNeeding(CARGO, `a 429 with Retry-After: 1 on each index file of the index (${withMirror ? 'with a mirror' : 'alone'}) is waited out by the relay within one attempt`, async () => {
    const index = await registry(TWO, { fault: ({ path, isFile }) => !isFile && path !== '/config.json' ? { kind: 'status', status: 429, retryAfter: 1, times: 1 } : OK })
    const mirror = await registry(TWO)
    const healthy = await registry(TWO)
    const dir = project(index, withMirror ? [mirror] : [], { dependencies: BOTH })
    // cargo's own retries off: what waits out the 429 is the relay, not cargo asking again.
    const result = await runCli(['-v', 'cargo', 'fetch'], { cwd: dir, env: { ...cargoEnv(), CARGO_NET_RETRY: '0' } })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toContain('done in 1 attempt')
    for (const page of ['/ti/ny/tinyanswer', '/ot/he/otheranswer']) expect(index.requests.filter(path => path === page), page).toHaveLength(2)
    // Pages come from the index: a 429 it asks to wait for is waited for, never an occasion to ask a mirror.
    expect(indexFiles(mirror)).toEqual([])
    expect(cargoLock(dir)).toBe(await plainCargoLock(dir, healthy))
  })

  itNeeding(CARGO, 'a slow index and a lagging mirror: Cargo.lock gets the index\'s newest version (0.1.1, which the mirror does not have yet)', async () => {
    const versions = [buildCrate('tinyanswer', '0.1.0'), buildCrate('tinyanswer', '0.1.1', 43)]
    const index = await registry(versions, { fault: ({ isFile }) => isFile ? OK : { kind: 'delay', ms: 1500 } })
    const mirror = await registry(versions, { missing: ['tinyanswer@0.1.1'] })
    const healthy = await registry(versions)
    const dir = project(index, [mirror])
    const result = await runCli(['-v', 'cargo', 'fetch'], { cwd: dir, env: cargoEnv() })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toContain('done in 1 attempt')
    expect(cargoLock(dir)).toMatch(/name = "tinyanswer"\nversion = "0\.1\.1"/)
    expect(cargoLock(dir)).toBe(await plainCargoLock(dir, healthy))
    expect(indexFiles(mirror)).toEqual([])
  })

  itNeeding(CARGO, 'a mirror\'s other bytes for a crate never reach cargo: checked against the index\'s cksum, the transfer is broken off', async () => {
    const index = await registry(CRATES, { fault: ({ isFile }) => isFile ? { kind: 'status', status: 503 } : OK })
    const mirror = await registry(CRATES, { fault: { kind: 'corrupt' } })
    const dir = project(index, [mirror], { config: { maxAttempts: 1 } })
    const env = cargoEnv()
    const result = await runCli(['-v', 'cargo', 'fetch'], { cwd: dir, env: { ...env, CARGO_NET_RETRY: '1' } })
    expect(result.exitCode).not.toBe(0)
    expect(result.stderr).toMatch(/download: the copy from 127\.0\.0\.1:\d+ failed its published hash; it is not passed on/)
    expect(mirror.requests).toContain('/dl/tinyanswer/0.1.0/download')
    // Nothing of the mirror's copy was kept: no .crate in cargo's download cache.
    expect(execaSync('find', [env.CARGO_HOME!, '-name', '*.crate']).stdout).toBe('')
  })

  // cargo takes the last --config that sets a key: resilient's own replacement must come after the person's.
  itNeeding(CARGO, 'the person\'s own --config replacing crates-io by the public index, which fails: the relay still stands in front of it, and the mirror serves the run in one attempt', async () => {
    const [index, mirror] = await start({ kind: 'status', status: 503 }, { kind: 'ok' })
    const dir = project(index, [mirror])
    const own = ['--config', 'source.crates-io.replace-with="own"', '--config', `source.own.registry="sparse+${index.url}"`]
    const result = await runCli(['-v', 'cargo', ...own, 'fetch'], { cwd: dir, env: cargoEnv() })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toContain('done in 1 attempt')
    expect(result.stderr).toMatch(/cargo --config 'source\.crates-io\.replace-with="own"' --config \S+ --config \S+cargo-relay\.toml fetch/)
    expect(mirror.requests).toContain('/dl/tinyanswer/0.1.0/download')
  })

  itNeeding(CARGO, 'the person\'s own --config replacing crates-io by a source resilient does not know: cargo asks only it, nothing goes to resilient\'s index or mirror, and --dry-run says so', async () => {
    const [index, mirror, own] = await start({ kind: 'ok' }, { kind: 'ok' }, { kind: 'ok' })
    const dir = project(index, [mirror])
    // The alternative-registry form: `replace-with` names a [registries] entry, its index in the environment.
    const args = ['cargo', '--config', 'source.crates-io.replace-with="own"', 'fetch']
    const env = { ...cargoEnv(), CARGO_REGISTRIES_OWN_INDEX: `sparse+${own!.url}` }
    const dry = await runCli(['--dry-run', ...args], { cwd: dir, env })
    expect(dry.exitCode, dry.all).toBe(0)
    expect(dry.stdout.trim()).toBe(`cargo --config 'source.crates-io.replace-with="own"' fetch`)
    expect(dry.stderr).toMatch(new RegExp(`attempt 1 of 1 on your index 127\\.0\\.0\\.1:${own!.port} .*contacts 127\\.0\\.0\\.1:${own!.port}$`, 'm'))
    expect(dry.stderr).not.toMatch(/relay on/)
    const result = await runCli(['-v', ...args], { cwd: dir, env })
    expect(result.exitCode, result.all).toBe(0)
    expect(own!.requests).toContain('/dl/tinyanswer/0.1.0/download')
    expect([...index.requests, ...mirror.requests]).toEqual([])
  })

  itNeeding(CARGO, '--dry-run shows the relay\'s attempt, its sources and the config file it writes', async () => {
    const dir = project({ url: 'http://127.0.0.1:9/' }, [{ url: 'http://127.0.0.1:10/' }])
    const result = await runCli(['--dry-run', 'cargo', 'fetch'], { cwd: dir, env: cargoEnv() })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toMatch(/through resilient's relay on 127\.[\d.]+:\d+, which asks for pages of 127\.0\.0\.1:9 \(of 127\.0\.0\.1:10 only once 127\.0\.0\.1:9 fails\)/)
    expect(result.stdout).toMatch(/^CARGO_REGISTRIES_RESILIENT_RELAY_TOKEN=\*+ cargo --config \S+cargo-relay\.toml fetch/m)
  })
})
