import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { execa } from 'execa'
import { afterEach, describe, expect, it } from 'vitest'
import type { FaultChoice } from '../../src/demo/fault-server.js'
import { buildTarball, startNpmRegistry, type NpmRegistry } from '../support/npm-registry.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'
import { localhostFronts } from '../helpers/relay-setup.js'

// "Pages are authority" for npm (docs/relay.md), with the real npm through the built CLI and its sh launcher.
const LAUNCHER = fileURLToPath(new URL('../../bin/resilient', import.meta.url))
const PUBLIC = [buildTarball({ name: 'left-pad-x', version: '1.0.0' })]
const LOOK_ALIKE = buildTarball({ name: '@corp/secret-lib', version: '9.9.9', files: { 'index.js': 'module.exports = "look-alike"\n' } })
const PRIVATE = buildTarball({ name: '@corp/secret-lib', version: '1.0.0', files: { 'index.js': 'module.exports = "the company\'s"\n' } })

const registries: NpmRegistry[] = []
afterEach(async () => {
  await Promise.all(registries.splice(0).map(registry => registry.close()))
})
const onLocalhost = localhostFronts()
async function registry(packages: Parameters<typeof startNpmRegistry>[0]['packages'], fault?: FaultChoice): Promise<NpmRegistry> {
  const started = await startNpmRegistry({ packages, fault })
  registries.push(started)
  return started
}

function project(config: unknown): string {
  const cwd = projectWithConfig({ relay: true, ...config as object })
  writeFileSync(join(cwd, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', private: true }))
  return cwd
}
const installed = (cwd: string, name: string) => {
  const file = join(cwd, 'node_modules', name, 'package.json')
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : undefined
}

describe('npm through the relay: the index and the person\'s own settings decide', () => {
  it('a scope\'s registry and its token set in the environment reach npm through the sh launcher (names no POSIX shell keeps)', async () => {
    // The index answers 503 for the scoped name, the mirror has a look-alike: were the scope's setting lost, the
    // public side would be asked and the look-alike could win.
    const index = await registry(PUBLIC, ({ path }) => /corp/.test(path) ? { kind: 'status', status: 503 } : { kind: 'ok' })
    const mirror = await registry([...PUBLIC, LOOK_ALIKE])
    const corp = await registry([PRIVATE])
    const corpUrl = await onLocalhost(corp)
    const cwd = project({ npm: { index: index.url, mirrors: [mirror.url] } })
    const env = isolatedEnv({ 'npm_config_@corp:registry': corpUrl, [`npm_config_//${new URL(corpUrl).host}/:_authToken`]: 'a-company-token' })
    const result = await execa(LAUNCHER, ['npm', 'install', '@corp/secret-lib', 'left-pad-x', '--no-audit'], { cwd, env, extendEnv: false, reject: false, all: true, stdin: 'ignore', timeout: 120_000 })
    expect(result.exitCode, result.all).toBe(0)
    expect(installed(cwd, '@corp/secret-lib')).toBe('1.0.0')
    expect([...index.requests, ...mirror.requests].filter(path => /corp/.test(path))).toEqual([])
    expect(new Set(corp.authorizations)).toEqual(new Set(['Bearer a-company-token']))
    // The token never shows in what resilient prints.
    expect(result.all).not.toContain('a-company-token')
  })

  it('the same through npm\'s shim: the install, and a read-only call that never starts Node', async () => {
    const index = await registry(PUBLIC, ({ path }) => /corp/.test(path) ? { kind: 'status', status: 503 } : { kind: 'ok' })
    const mirror = await registry([...PUBLIC, LOOK_ALIKE])
    const corp = await registry([PRIVATE])
    const corpUrl = await onLocalhost(corp)
    const cwd = project({ npm: { index: index.url, mirrors: [mirror.url] } })
    const base = isolatedEnv({ 'npm_config_@corp:registry': corpUrl })
    const dir = join(base.HOME!, 'shims')
    const installedShims = await execa(LAUNCHER, ['shim', 'install', '--dir', dir, 'npm'], { env: base, extendEnv: false, reject: false, all: true })
    expect(installedShims.exitCode, installedShims.all).toBe(0)
    const env = { ...base, PATH: `${dir}:${base.PATH}` }
    const read = await execa('npm', ['config', 'get', '@corp:registry'], { cwd, env, extendEnv: false, reject: false, all: true })
    expect(read.stdout.trim()).toBe(corpUrl)
    const result = await execa('npm', ['install', '@corp/secret-lib', '--no-audit'], { cwd, env, extendEnv: false, reject: false, all: true, stdin: 'ignore', timeout: 120_000 })
    expect(result.exitCode, result.all).toBe(0)
    expect(installed(cwd, '@corp/secret-lib')).toBe('1.0.0')
    expect([...index.requests, ...mirror.requests].filter(path => /corp/.test(path))).toEqual([])
  })

  it('with a scope\'s registry beside the index, pages never come from a mirror: a dead index fails as plain npm fails, the mirror never asked for a page', async () => {
    const index = await registry(PUBLIC, ({ path, isFile }) => !isFile && path === '/left-pad-x' ? { kind: 'status', status: 503 } : { kind: 'ok' })
    const mirror = await registry([...PUBLIC, LOOK_ALIKE])
    const corp = await registry([PRIVATE])
    const cwd = project({ npm: { index: index.url, mirrors: [mirror.url] } })
    writeFileSync(join(cwd, '.npmrc'), `@corp:registry=${await onLocalhost(corp)}\n`)
    const env = isolatedEnv()
    const report = join(env.HOME!, 'report.json')
    const result = await execa(LAUNCHER, ['--report', report, '--max-attempts', '1', 'npm', 'install', 'left-pad-x', '--no-audit', '--fetch-retries=0'], { cwd, env, extendEnv: false, reject: false, all: true, stdin: 'ignore', timeout: 120_000 })
    expect(result.exitCode, result.all).not.toBe(0)
    expect(mirror.requests.filter(path => !path.includes('/-/'))).toEqual([])
    expect(JSON.parse(readFileSync(report, 'utf8')).relay.mirrorPages).toBeUndefined()
  })

  it('a workspace project: nothing of its own workspaces\' names is asked of the public registry, fetched ahead or not', async () => {
    const index = await registry(PUBLIC)
    const cwd = project({ npm: { index: index.url, mirrors: [] } })
    writeFileSync(join(cwd, 'package.json'), JSON.stringify({ name: 'root', version: '1.0.0', private: true, workspaces: ['packages/*'], dependencies: { 'corp-utils': '^1.0.0', 'left-pad-x': '^1.0.0' } }))
    for (const [name, deps] of [['corp-utils', {}], ['corp-app', { 'corp-utils': '^1.0.0', 'left-pad-x': '^1.0.0' }]] as const) {
      mkdirSync(join(cwd, 'packages', name), { recursive: true })
      writeFileSync(join(cwd, 'packages', name, 'package.json'), JSON.stringify({ name, version: '1.0.0', dependencies: deps }))
    }
    const env = isolatedEnv()
    const report = join(env.HOME!, 'report.json')
    const result = await execa(LAUNCHER, ['--report', report, 'npm', 'install', '--no-audit'], { cwd, env, extendEnv: false, reject: false, all: true, stdin: 'ignore', timeout: 120_000 })
    expect(result.exitCode, result.all).toBe(0)
    expect(index.requests.filter(path => /corp/.test(path))).toEqual([])
    expect(JSON.parse(readFileSync(report, 'utf8')).relay).toBeDefined()
  })

  it('a lockfile pinning registry.npmjs.org\'s own tarball URLs with another registry configured: every tarball goes where plain npm sends it, the configured registry, through the relay', async () => {
    const pinned = [buildTarball({ name: 'resilient-pinned-fixture-x', version: '1.0.0' })]
    const index = await registry(pinned)
    const mirror = await registry(pinned)
    const lockfile = async (dir: string) => {
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', private: true, dependencies: { 'resilient-pinned-fixture-x': '^1.0.0' } }))
      const made = await execa('npm', ['install', '--package-lock-only', '--no-audit', `--registry=${index.url}`], { cwd: dir, env: isolatedEnv(), extendEnv: false, reject: false, all: true })
      expect(made.exitCode, made.all).toBe(0)
      const text = readFileSync(join(dir, 'package-lock.json'), 'utf8').replaceAll(index.url, 'https://registry.npmjs.org/')
      writeFileSync(join(dir, 'package-lock.json'), text)
      return text
    }
    const plainDir = project({})
    const pinnedText = await lockfile(plainDir)
    expect(pinnedText).toContain('https://registry.npmjs.org/resilient-pinned-fixture-x/-/')
    const plain = await execa('npm', ['ci', '--no-audit', `--registry=${index.url}`], { cwd: plainDir, env: isolatedEnv(), extendEnv: false, reject: false, all: true })
    expect(plain.exitCode, plain.all).toBe(0)
    const cwd = project({ npm: { index: index.url, mirrors: [mirror.url] } })
    await lockfile(cwd)
    const before = index.requests.length
    const result = await execa(LAUNCHER, ['npm', 'ci', '--no-audit'], { cwd, env: isolatedEnv(), extendEnv: false, reject: false, all: true, stdin: 'ignore', timeout: 120_000 })
    expect(result.exitCode, result.all).toBe(0)
    expect(installed(cwd, 'resilient-pinned-fixture-x')).toBe('1.0.0')
    expect(index.requests.slice(before).filter(path => path.includes('/-/'))).toHaveLength(1)
    expect(readFileSync(join(cwd, 'package-lock.json'), 'utf8')).toBe(readFileSync(join(plainDir, 'package-lock.json'), 'utf8'))
  })

  it('npm\'s cache stays plain npm\'s: after an install through the relay, plain npm installs offline from it, the registry gone', async () => {
    const index = await registry(PUBLIC)
    const cwd = project({ npm: { index: index.url, mirrors: [] } })
    const env = isolatedEnv()
    const result = await execa(LAUNCHER, ['npm', 'install', 'left-pad-x', '--no-audit'], { cwd, env, extendEnv: false, reject: false, all: true, stdin: 'ignore', timeout: 120_000 })
    expect(result.exitCode, result.all).toBe(0)
    const url = index.url
    await index.close()
    for (const mode of ['--offline', '--prefer-offline']) {
      const later = project({})
      const plain = await execa('npm', ['install', 'left-pad-x', '--no-audit', mode, `--registry=${url}`], { cwd: later, env, extendEnv: false, reject: false, all: true, timeout: 60_000 })
      expect(plain.exitCode, plain.all).toBe(0)
      expect(installed(later, 'left-pad-x')).toBe('1.0.0')
    }
  })

  it('the only mirror serves corrupt tarballs, the index dead: it fails as plain npm fails, never as a stall, nothing left in node_modules', async () => {
    const index = await registry(PUBLIC)
    const url = index.url
    await index.close()
    const mirror = await registry(PUBLIC, ({ isFile }) => isFile ? { kind: 'corrupt' } : { kind: 'ok' })
    const plainDir = project({})
    const plain = await execa('npm', ['install', 'left-pad-x', '--no-audit', '--fetch-retries=1', '--fetch-retry-mintimeout=500', '--fetch-retry-maxtimeout=1000', `--registry=${mirror.url}`], { cwd: plainDir, env: isolatedEnv(), extendEnv: false, reject: false, all: true, timeout: 120_000 })
    expect(plain.exitCode).not.toBe(0)
    const cwd = project({ npm: { index: url, mirrors: [mirror.url] } })
    const env = isolatedEnv()
    const report = join(env.HOME!, 'report.json')
    const result = await execa(LAUNCHER, ['--report', report, 'npm', 'install', 'left-pad-x', '--no-audit', '--fetch-retries=1', '--fetch-retry-mintimeout=500', '--fetch-retry-maxtimeout=1000'], { cwd, env, extendEnv: false, reject: false, all: true, stdin: 'ignore', timeout: 240_000 })
    expect(result.exitCode, result.all).not.toBe(0)
    expect(result.all).not.toMatch(/stalled/)
    const { attempts } = JSON.parse(readFileSync(report, 'utf8')) as { attempts: { stoppedByResilient: boolean; diagnosis: { summary: string } | null }[] }
    expect(attempts.filter(attempt => attempt.stoppedByResilient)).toEqual([])
    for (const dir of [plainDir, cwd]) expect(existsSync(join(dir, 'node_modules', 'left-pad-x'))).toBe(false)
  }, 300_000)
})
