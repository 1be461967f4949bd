import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { command, describeNeeding } from '../helpers/requirements.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { buildCrate, startCratesRegistry, type CratesRegistry } from '../support/crates-registry.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'
import type { Fault } from '../../src/demo/fault-server.js'

// The real cargo against sparse registries on 127.0.0.1, through the built CLI. CARGO_HOME is a fresh folder,
// so nothing is cached and the user's ~/.cargo is never read or written.
const CRATES = [buildCrate('tinyanswer', '0.1.0')]

function cargoProject(primary: CratesRegistry, mirror: CratesRegistry, extra: Record<string, unknown> = {}): string {
  const project = projectWithConfig({ crates: { index: primary.url, mirrors: [mirror.url] }, ...extra })
  writeFileSync(join(project, 'Cargo.toml'), '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\ntinyanswer = "0.1"\n')
  mkdirSync(join(project, 'src'))
  writeFileSync(join(project, 'src', 'lib.rs'), 'pub fn f() -> u32 { tinyanswer::answer() }\n')
  return project
}

// rustup's proxy `cargo` finds its toolchains under RUSTUP_HOME (default ~/.rustup of the real user); it only reads it.
const RUSTUP_HOME = process.env.RUSTUP_HOME ?? join(userInfo().homedir, '.rustup')
const env = () => {
  const base = isolatedEnv()
  return { ...base, RUSTUP_HOME, CARGO_HOME: join(base.HOME!, '.cargo'), PATH: `${join(userInfo().homedir, '.cargo', 'bin')}:${base.PATH}` }
}

describeNeeding(command('cargo'), 'resilient cargo (real cargo)', () => {
  const registries: CratesRegistry[] = []
  afterEach(async () => { await Promise.all(registries.splice(0).map(registry => registry.close())) })
  const start = async (...faults: Fault[]) => {
    const started = await Promise.all(faults.map(fault => startCratesRegistry(CRATES, { fault })))
    registries.push(...started)
    return started
  }

  it('recovers from a 503 on the mirror by source replacement', async () => {
    const [primary, mirror] = await start({ kind: 'status', status: 503 }, { kind: 'ok' })
    const project = cargoProject(primary!, mirror!)
    const result = await runCli(['cargo', 'fetch'], { cwd: project, env: env() })
    expect(result.exitCode, result.all).toBe(0)
    expect(mirror!.requests).toContain('/dl/tinyanswer/0.1.0/download')
    expect(result.stderr).toContain(`--config 'source.resilient-mirror.registry="sparse+${mirror!.url}"' fetch`)
    // Cargo.lock keeps the crates.io source: the mirror is not written into the project.
    expect(readFileSync(join(project, 'Cargo.lock'), 'utf8')).toContain('source = "registry+https://github.com/rust-lang/crates.io-index"')
  })

  it('recovers from a black-holed index long before cargo\'s own http timeout, once the mirror answered resilient\'s request', async () => {
    const [primary, mirror] = await start({ kind: 'blackhole' }, { kind: 'ok' })
    const project = cargoProject(primary!, mirror!)
    const result = await runCli(['cargo', 'fetch'], { cwd: project, env: env() })
    expect(result.exitCode, result.all).toBe(0)
    // Stopped by resilient, so before cargo's own 30 s timeout ended it: no wall-clock bound, which a loaded machine
    // stretches (how soon on a quiet one: npm run bench).
    expect(result.stderr).toMatch(/attempt 1 failed after [\d.]+ s \(stopped by resilient\): timeout — no answer from 127\.0\.0\.1:\d+/)
    expect(result.stderr).toMatch(/→ attempt 2 of \d on mirror [^:]+:\d+: cargo --config/)
  })

  it('never overrides a vendored source', async () => {
    const [primary, mirror] = await start({ kind: 'status', status: 503 }, { kind: 'ok' })
    const project = cargoProject(primary!, mirror!, { maxAttempts: 2, maxWaitSeconds: 1 })
    mkdirSync(join(project, '.cargo'))
    writeFileSync(join(project, '.cargo', 'config.toml'), '[source.crates-io]\nreplace-with = "vendored-sources"\n\n[source.vendored-sources]\ndirectory = "vendor"\n')
    const result = await runCli(['--dry-run', 'cargo', 'fetch'], { cwd: project, env: env() })
    expect(result.stdout.trim()).toBe('cargo fetch')
    expect(existsSync(join(project, 'vendor'))).toBe(false)
  })
})
