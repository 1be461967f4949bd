import { execa } from 'execa'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CLI, runCli } from '../helpers/run-cli.js'
import type { FaultChoice } from '../../src/demo/fault-server.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'
import { envWithTool, installed, primaryAndMirror, served, type Setup } from '../helpers/npm-registries.js'

// Lockfiles that pin a registry, with the real npm 11, pnpm 10 and yarn 1.22 against registries on 127.0.0.1: a lockfile
// pinned to the company registry, which then dies. The mirror must really serve the locked tarballs, the lockfile
// must end as the plain tool would leave it, and nothing may be booked against the mirror.

const cache = () => mkdtempSync(join(tmpdir(), 'tool-cache-'))
// A mirror that hangs on the install, so that the attempt on it can be interrupted, while it answers resilient's own
// small request (the packument of is-number: 404 here), so that it is worth an attempt.
const hangsButAnswersProbes: FaultChoice = ({ path }) => path === '/is-number' ? { kind: 'ok' } : { kind: 'blackhole' }

/** Locks the project on the primary with the plain tool (the company registry at work), then kills the primary. */
async function lockedOnPrimary(setup: Setup, env: Record<string, string>, tool: 'npm' | 'pnpm' | 'yarn'): Promise<Buffer> {
  const install = {
    npm: ['npm', ['install', '@acme/util', `--registry=${setup.primary.url}`, '--no-audit', `--cache=${cache()}`]],
    pnpm: ['pnpm', ['add', '@acme/util', `--registry=${setup.primary.url}`, `--store-dir=${cache()}`]],
    yarn: ['yarn', ['add', '@acme/util', '--registry', setup.primary.url, '--cache-folder', cache()]],
  } as const
  const [file, args] = install[tool]
  const locked = await execa(file, args, { cwd: setup.project, env, extendEnv: false, reject: false, all: true })
  expect(locked.exitCode, locked.all).toBe(0)
  rmSync(join(setup.project, 'node_modules'), { recursive: true, force: true })
  // Dead: it accepts connections and answers nothing (a registry that resets them costs each tool its own retries
  // first, 70 s for npm and pnpm, as without resilient).
  setup.primary.setFault({ kind: 'blackhole' })
  const name = { npm: 'package-lock.json', pnpm: 'pnpm-lock.yaml', yarn: 'yarn.lock' }[tool]
  const bytes = readFileSync(join(setup.project, name))
  if (tool !== 'pnpm') expect(bytes.toString()).toContain(`${setup.primary.url}@acme/util/-/util-2.0.0.tgz`)
  return bytes
}

describe('a lockfile pinned to a registry that died', { timeout: 240_000 }, () => {
  let setup: Setup | undefined
  afterEach(async () => { await setup?.close() })

  it('npm ci: recovered on the mirror, package-lock.json byte-identical, and later installs elsewhere still use the mirror', async () => {
    setup = await primaryAndMirror({ kind: 'ok' })
    const env = envWithTool('npm', { npm_config_cache: cache() })
    const before = await lockedOnPrimary(setup, env, 'npm')
    const tarballsBefore = setup.mirror.requests.length
    // Three runs: on today's main each one failed, booked against the mirror, and opened its breaker.
    for (let run = 1; run <= 3; run++) {
      rmSync(join(setup.project, 'node_modules'), { recursive: true, force: true })
      // An empty npm cache each time: a warm one would serve the tarballs without asking any registry.
      const result = await runCli(['npm', 'ci'], { cwd: setup.project, env: { ...env, npm_config_cache: cache() } })
      expect(result.exitCode, result.all).toBe(0)
      expect(readFileSync(join(setup.project, 'package-lock.json')).equals(before)).toBe(true)
      expect(installed(setup.project, '@acme/util') && installed(setup.project, 'left-pad-x')).toBe(true)
    }
    expect(setup.mirror.requests.slice(tarballsBefore)).toContain('/@acme/util/-/util-2.0.0.tgz')

    // Another project, the same state directory: the mirror is healthy in the record and is used.
    const other = projectWithConfig({ npm: { index: setup.primary.url, mirrors: [setup.mirror.url] } })
    writeFileSync(join(other, 'package.json'), JSON.stringify({ name: 'other', version: '1.0.0', private: true }))
    const requests = setup.mirror.requests.length
    const later = await runCli(['--report', join(other, 'report.json'), 'npm', 'install', 'left-pad-x'], { cwd: other, env: { ...env, npm_config_cache: cache() } })
    expect(later.exitCode, later.all).toBe(0)
    expect(setup.mirror.requests.length).toBeGreaterThan(requests)
    const report = JSON.parse(readFileSync(join(other, 'report.json'), 'utf8')) as { attempts: { hosts: string[] }[] }
    // The dead primary failed three runs in a row: it is tried last now, the mirror first.
    expect(report.attempts[0]!.hosts).toEqual([new URL(setup.mirror.url).host])
    const health = await runCli(['mirrors', 'list', 'npm', '--json'], { cwd: other, env })
    const listed = JSON.parse(health.stdout).ecosystems[0].mirrors as { url: string; breaker: string }[]
    expect(Object.fromEntries(listed.slice(0, 2).map(mirror => [mirror.url, mirror.breaker]))).toEqual({ [setup.primary.url]: 'open', [setup.mirror.url]: 'closed' })
  })

  it('yarn 1: recovered on the mirror through a per-attempt yarn.lock rewrite, put back byte for byte', async () => {
    setup = await primaryAndMirror({ kind: 'ok' })
    const env = envWithTool('yarn1', { YARN_CACHE_FOLDER: cache() })
    const before = await lockedOnPrimary(setup, env, 'yarn')
    const result = await runCli(['yarn', 'install', '--frozen-lockfile'], { cwd: setup.project, env })
    expect(result.exitCode, result.all).toBe(0)
    expect(installed(setup.project, '@acme/util') && installed(setup.project, 'left-pad-x')).toBe(true)
    expect(setup.mirror.requests).toContain('/@acme/util/-/util-2.0.0.tgz')
    expect(readFileSync(join(setup.project, 'yarn.lock')).equals(before)).toBe(true)
  })

  it('yarn 1: Ctrl-C during the mirror attempt still puts yarn.lock back byte for byte', async () => {
    setup = await primaryAndMirror({ kind: 'ok' })
    const env = envWithTool('yarn1', { YARN_CACHE_FOLDER: cache() })
    const before = await lockedOnPrimary(setup, env, 'yarn')
    setup.mirror.setFault(hangsButAnswersProbes)
    const child = execa('node', [CLI, 'yarn', 'install', '--frozen-lockfile'], { cwd: setup.project, env, extendEnv: false, reject: false, all: true, stdin: 'ignore', timeout: 120_000 })
    const lockfile = join(setup.project, 'yarn.lock')
    for (let waited = 0; !readFileSync(lockfile, 'utf8').includes(setup.mirror.url) && waited < 60_000; waited += 100) await new Promise(resolve => setTimeout(resolve, 100))
    expect(readFileSync(lockfile, 'utf8')).toContain(`${setup.mirror.url}@acme/util/-/util-2.0.0.tgz`)
    child.kill('SIGINT')
    const result = await child
    // yarn dies of the SIGINT; resilient then dies of it too, as the shell would see yarn alone (130 either way).
    expect(result.signal ?? result.exitCode, result.all).toBe(result.signal ? 'SIGINT' : 130)
    expect(readFileSync(lockfile).equals(before)).toBe(true)
  })

  it('yarn 1: after a SIGKILL of resilient (and yarn) during the mirror attempt, the next run puts yarn.lock back first and says so', async () => {
    setup = await primaryAndMirror({ kind: 'ok' })
    const env = envWithTool('yarn1', { YARN_CACHE_FOLDER: cache() })
    const before = await lockedOnPrimary(setup, env, 'yarn')
    setup.mirror.setFault(hangsButAnswersProbes)
    // Its own process group, as a CI job's: the runner's SIGKILL reaches resilient and yarn at once.
    const child = execa('node', [CLI, 'yarn', 'install', '--frozen-lockfile'], { cwd: setup.project, env, extendEnv: false, reject: false, stdin: 'ignore', detached: true, timeout: 120_000 })
    const lockfile = join(setup.project, 'yarn.lock')
    for (let waited = 0; !readFileSync(lockfile, 'utf8').includes(setup.mirror.url) && waited < 60_000; waited += 100) await new Promise(resolve => setTimeout(resolve, 100))
    process.kill(-child.pid!, 'SIGKILL')
    expect((await child).signal).toBe('SIGKILL')
    expect(readFileSync(lockfile, 'utf8')).toContain(`${setup.mirror.url}@acme/util/-/util-2.0.0.tgz`)
    expect(existsSync(join(setup.project, '.yarn.lock.resilient-journal'))).toBe(true)

    setup.mirror.setFault({ kind: 'ok' })
    const next = await runCli(['yarn', 'install', '--frozen-lockfile'], { cwd: setup.project, env })
    expect(next.exitCode, next.all).toBe(0)
    expect(next.stderr).toMatch(/put yarn\.lock back as it was before a mirror attempt of an earlier run \(process \d+\)/)
    expect(readFileSync(lockfile).equals(before)).toBe(true)
    expect(existsSync(join(setup.project, '.yarn.lock.resilient-journal'))).toBe(false)
  })

  it('pnpm: recovered on the mirror, pnpm-lock.yaml unchanged', async () => {
    setup = await primaryAndMirror({ kind: 'ok' })
    const env = envWithTool('pnpm')
    const before = await lockedOnPrimary(setup, env, 'pnpm')
    const result = await runCli(['pnpm', 'install', '--frozen-lockfile', `--store-dir=${cache()}`], { cwd: setup.project, env })
    expect(result.exitCode, result.all).toBe(0)
    expect(installed(setup.project, '@acme/util')).toBe(true)
    expect(served(setup.mirror, '@acme/util')).toBe(true)
    expect(readFileSync(join(setup.project, 'pnpm-lock.yaml')).equals(before)).toBe(true)
  })
})
