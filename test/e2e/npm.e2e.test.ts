import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/run-cli.js'
import { envWithTool, installed, primaryAndMirror, served, type Setup } from '../helpers/npm-registries.js'

// The real npm (the one that comes with Node) against registries on 127.0.0.1, through the built CLI.
describe('resilient npm (real npm)', () => {
  let setup: Setup | undefined
  afterEach(async () => { await setup?.close() })

  it('recovers from a black-holed registry on a healthy mirror, long before npm\'s own 5-minute timeout', async () => {
    setup = await primaryAndMirror({ kind: 'blackhole' })
    const result = await runCli(['npm', 'install', '@acme/util'], { cwd: setup.project, env: envWithTool('npm') })
    expect(result.exitCode, result.all).toBe(0)
    // Left by resilient (hedged detection), not by npm's own timeout: no wall-clock bound, which a loaded machine
    // stretches (how soon on a quiet one: npm run bench).
    expect(result.stderr).toMatch(/attempt 1 failed after [\d.]+ s \(stopped by resilient\): timeout — no answer from 127\.0\.0\.1:\d+/)
    expect(installed(setup.project, '@acme/util') && installed(setup.project, 'left-pad-x')).toBe(true)
    expect(served(setup.primary, '@acme/util')).toBe(true)
    expect(served(setup.mirror, '@acme/util')).toBe(true)
    expect(result.stderr).toContain(`npm install @acme/util --registry=${setup.mirror.url} --no-audit\n`)
  })

  it('recovers from a 503 on the mirror (your own --fetch-retries=0: at once)', async () => {
    setup = await primaryAndMirror({ kind: 'status', status: 503 })
    // npm's own retries are kept (10 s, then 60 s apart by default); set to none, the mirror is tried at once.
    const result = await runCli(['npm', 'i', 'left-pad-x', '--fetch-retries=0'], { cwd: setup.project, env: envWithTool('npm') })
    expect(result.exitCode, result.all).toBe(0)
    expect(installed(setup.project, 'left-pad-x')).toBe(true)
    expect(served(setup.mirror, 'left-pad-x')).toBe(true)
  })

  it('recovers from a corrupted tarball (EINTEGRITY) on the mirror', async () => {
    setup = await primaryAndMirror({ kind: 'corrupt' })
    // npm retries a corrupted download itself first (10 s, then 60 s apart); none here, as a person may set it.
    const result = await runCli(['npm', 'install', 'left-pad-x', '--fetch-retries=0'], { cwd: setup.project, env: envWithTool('npm') })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.all).toMatch(/EINTEGRITY/)
    expect(setup.mirror.requests).toContain('/left-pad-x/-/left-pad-x-1.0.0.tgz')
    expect(installed(setup.project, 'left-pad-x')).toBe(true)
  })

  it('never sends a registry chosen in the project .npmrc to a mirror', async () => {
    setup = await primaryAndMirror({ kind: 'status', status: 503 })
    writeFileSync(join(setup.project, '.resilientrc.json'), JSON.stringify({ npm: { mirrors: [setup.mirror.url] }, maxAttempts: 2, maxWaitSeconds: 1 }))
    writeFileSync(join(setup.project, '.npmrc'), `registry=${setup.primary.url}\n`)
    const result = await runCli(['--verbose', 'npm', 'install', 'left-pad-x', '--fetch-retries=0'], { cwd: setup.project, env: envWithTool('npm') })
    expect(result.exitCode).not.toBe(0)
    expect(setup.mirror.requests).toEqual([])
    expect(result.stderr).toMatch(/not a public index known to resilient/)
  })

  it('prints every planned attempt with --dry-run and runs nothing', async () => {
    setup = await primaryAndMirror({ kind: 'ok' })
    const result = await runCli(['--dry-run', 'npm', 'ci'], { cwd: setup.project, env: envWithTool('npm') })
    expect(result.stdout.split('\n')).toEqual([
      `npm ci --registry=${setup.primary.url} --no-audit`,
      `npm ci --registry=${setup.mirror.url} --no-audit`,
    ])
    expect(setup.primary.requests).toEqual([])
  })

  it('warns on --dry-run that package-lock.json pins a dead host', async () => {
    setup = await primaryAndMirror({ kind: 'ok' })
    const lock = { lockfileVersion: 3, packages: { '': {}, 'node_modules/left-pad-x': { version: '1.0.0', resolved: 'https://registry.npm.taobao.org/left-pad-x/-/left-pad-x-1.0.0.tgz' } } }
    writeFileSync(join(setup.project, 'package-lock.json'), JSON.stringify(lock))
    const result = await runCli(['--dry-run', 'npm', 'ci'], { cwd: setup.project, env: envWithTool('npm') })
    expect(result.stderr).toMatch(/package-lock\.json pins 1 package to registry\.npm\.taobao\.org/)
    expect(JSON.parse(readFileSync(join(setup.project, 'package-lock.json'), 'utf8'))).toEqual(lock)
  })
})
