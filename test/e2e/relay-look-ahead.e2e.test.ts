import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterEach, describe, expect, it } from 'vitest'
import { buildTarball, startNpmRegistry, type NpmRegistry } from '../support/npm-registry.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'
import { localhostFronts } from '../helpers/relay-setup.js'

// The built CLI and real npm against a registry 30 ms away: the relay fetches packuments ahead of npm, which asks
// for them one at a time. What npm writes must be what it writes without resilient, and nothing fetched twice.
const LEAVES = Array.from({ length: 6 }, (_, i) => buildTarball({ name: `leaf-${i}`, version: '1.0.0' }))
const TOPS = Array.from({ length: 6 }, (_, i) => buildTarball({ name: `top-${i}`, version: '1.0.0', dependencies: { [`leaf-${i}`]: '^1.0.0' } }))
const PACKAGES = [...LEAVES, ...TOPS, buildTarball({ name: 'mid', version: '1.0.0', dependencies: { 'top-0': '^1.0.0', 'top-1': '^1.0.0' } })]
const SECRET = buildTarball({ name: '@corp/secret', version: '1.0.0', dependencies: { 'leaf-0': '^1.0.0' } })
const MANIFEST = { name: 'look-ahead', version: '1.0.0', private: true, dependencies: { mid: '^1.0.0', ...Object.fromEntries(TOPS.slice(2).map(top => [top.spec.name, '^1.0.0'])) } }

const registries: NpmRegistry[] = []
afterEach(async () => {
  await Promise.all(registries.splice(0).map(registry => registry.close()))
})
const onLocalhost = localhostFronts()

async function registry(packages = PACKAGES, likeNpmjs = false): Promise<NpmRegistry> {
  const started = await startNpmRegistry({ packages, fault: { kind: 'delay', ms: 30 }, likeNpmjs })
  registries.push(started)
  return started
}
const packuments = (requests: readonly string[]) => requests.filter(path => !path.includes('/-/'))

describe('the relay fetching packuments ahead of npm', () => {
  it('answers npm from what it fetched ahead: package-lock.json as plain npm writes it, no packument asked twice', async () => {
    const index = await registry()
    const plain = mkdtempSync(join(tmpdir(), 'resilient-look-ahead-plain-'))
    writeFileSync(join(plain, 'package.json'), JSON.stringify(MANIFEST))
    const alone = await execa('npm', ['install', '--no-audit', `--registry=${index.url}`], { cwd: plain, env: isolatedEnv(), extendEnv: false, reject: false, all: true })
    expect(alone.exitCode, alone.all).toBe(0)
    const asked = index.requests.length

    const cwd = projectWithConfig({ relay: true, npm: { index: index.url, mirrors: [] } })
    writeFileSync(join(cwd, 'package.json'), JSON.stringify(MANIFEST))
    const env = isolatedEnv()
    const result = await runCli(['--verbose', '--report', join(env.HOME!, 'report.json'), 'npm', 'install', '--no-audit'], { cwd, env })
    expect(result.exitCode, result.all).toBe(0)
    expect(readFileSync(join(cwd, 'package-lock.json'), 'utf8')).toBe(readFileSync(join(plain, 'package-lock.json'), 'utf8'))
    const through = packuments(index.requests.slice(asked))
    // Every packument of the tree, once: what npm asked for alone.
    expect(new Set(through).size).toBe(through.length)
    expect([...through].sort()).toEqual(packuments(index.requests.slice(0, asked)).sort())
    const { relay } = JSON.parse(readFileSync(join(env.HOME!, 'report.json'), 'utf8'))
    // npm's first request starts the look-ahead; the 4 other dependencies of the project were fetched ahead and taken.
    expect(relay.lookAhead).toEqual({ fetched: 4, used: 4 })
    expect(result.stderr).toMatch(/relay fetched 4 packument\(s\) ahead of npm; it took 4 of them/)
  })

  it('never asks the public registry for a package of a scope npm sends elsewhere', async () => {
    const index = await registry()
    const corp = await registry([SECRET, ...LEAVES])
    const cwd = projectWithConfig({ relay: true, npm: { index: index.url, mirrors: [] } })
    writeFileSync(join(cwd, 'package.json'), JSON.stringify({ ...MANIFEST, dependencies: { ...MANIFEST.dependencies, '@corp/secret': '^1.0.0' } }))
    writeFileSync(join(cwd, '.npmrc'), `@corp:registry=${await onLocalhost(corp)}\n`)
    const env = isolatedEnv()
    const result = await runCli(['--report', join(env.HOME!, 'report.json'), 'npm', 'install', '--no-audit'], { cwd, env })
    expect(result.exitCode, result.all).toBe(0)
    expect(index.requests.filter(path => /corp/i.test(path))).toEqual([])
    expect(corp.requests.filter(path => /corp/i.test(path)).length).toBeGreaterThan(0)
    const { attempts, relay } = JSON.parse(readFileSync(join(env.HOME!, 'report.json'), 'utf8'))
    expect(attempts).toHaveLength(1)
    expect(relay.lookAhead.used).toBeGreaterThan(0)
  })

  it('leaves npm to the index directly when a scope\'s registry shares the index\'s host name (npm would send its downloads to the relay)', async () => {
    const index = await registry()
    const corp = await registry([SECRET, ...LEAVES])
    const cwd = projectWithConfig({ relay: true, npm: { index: index.url, mirrors: [] } })
    writeFileSync(join(cwd, 'package.json'), JSON.stringify({ ...MANIFEST, dependencies: { ...MANIFEST.dependencies, '@corp/secret': '^1.0.0' } }))
    writeFileSync(join(cwd, '.npmrc'), `@corp:registry=${corp.url}\n`)
    const env = isolatedEnv()
    const result = await runCli(['--verbose', '--report', join(env.HOME!, 'report.json'), 'npm', 'install', '--no-audit'], { cwd, env })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toMatch(/another registry it uses is there too \(127\.0\.0\.1:\d+\)/)
    expect(JSON.parse(readFileSync(join(env.HOME!, 'report.json'), 'utf8')).relay).toBeUndefined()
    expect(index.requests.filter(path => /corp/i.test(path))).toEqual([])
  })

  it('fetches nothing ahead with `lookAhead: false`, or when the lockfile has the whole tree', async () => {
    const index = await registry()
    const off = projectWithConfig({ relay: true, lookAhead: false, npm: { index: index.url, mirrors: [] } })
    writeFileSync(join(off, 'package.json'), JSON.stringify(MANIFEST))
    const env = isolatedEnv()
    const first = await runCli(['--report', join(env.HOME!, 'report.json'), 'npm', 'install', '--no-audit'], { cwd: off, env })
    expect(first.exitCode, first.all).toBe(0)
    expect(JSON.parse(readFileSync(join(env.HOME!, 'report.json'), 'utf8')).relay.lookAhead).toBeUndefined()

    const locked = projectWithConfig({ relay: true, npm: { index: index.url, mirrors: [] } })
    writeFileSync(join(locked, 'package.json'), JSON.stringify(MANIFEST))
    writeFileSync(join(locked, 'package-lock.json'), readFileSync(join(off, 'package-lock.json')))
    const asked = index.requests.length
    const second = await runCli(['--report', join(env.HOME!, 'report.json'), 'npm', 'install', '--no-audit'], { cwd: locked, env: isolatedEnv() })
    expect(second.exitCode, second.all).toBe(0)
    expect(packuments(index.requests.slice(asked))).toEqual([])
    expect(JSON.parse(readFileSync(join(env.HOME!, 'report.json'), 'utf8')).relay.lookAhead).toEqual({ fetched: 0, used: 0 })
  })

  it('gzipped packuments with ETags: fetched ahead on a cold cache; on a warm one npm revalidates its own copies and nothing is fetched ahead', async () => {
    const index = await registry(PACKAGES, true)
    const env = isolatedEnv()
    const run = async () => {
      const cwd = projectWithConfig({ relay: true, npm: { index: index.url, mirrors: [] } })
      writeFileSync(join(cwd, 'package.json'), JSON.stringify(MANIFEST))
      const result = await runCli(['--report', join(env.HOME!, 'report.json'), 'npm', 'install', '--no-audit'], { cwd, env })
      expect(result.exitCode, result.all).toBe(0)
      return { lock: readFileSync(join(cwd, 'package-lock.json'), 'utf8'), lookAhead: JSON.parse(readFileSync(join(env.HOME!, 'report.json'), 'utf8')).relay.lookAhead }
    }
    const cold = await run()
    expect(cold.lookAhead).toEqual({ fetched: 4, used: 4 })
    const asked = index.requests.length
    const warm = await run()
    expect(warm.lookAhead).toEqual({ fetched: 0, used: 0 })
    expect(warm.lock).toBe(cold.lock)
    // One revalidation per packument, as npm alone makes.
    expect(packuments(index.requests.slice(asked))).toHaveLength(13)
  })
})
