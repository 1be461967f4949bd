import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/run-cli.js'
import { envWithTool, installed, primaryAndMirror, served, type Setup } from '../helpers/npm-registries.js'

// The real yarn 1.22 (the `yarn` devDependency) against registries on 127.0.0.1, through the built CLI.
describe('resilient yarn (real yarn 1)', () => {
  let setup: Setup | undefined
  afterEach(async () => { await setup?.close() })

  it('recovers from a connection reset on the mirror', async () => {
    setup = await primaryAndMirror({ kind: 'reset' })
    const result = await runCli(['yarn', 'add', '@acme/util'], { cwd: setup.project, env: envWithTool('yarn1') })
    expect(result.exitCode, result.all).toBe(0)
    expect(installed(setup.project, '@acme/util') && installed(setup.project, 'left-pad-x')).toBe(true)
    expect(served(setup.mirror, '@acme/util')).toBe(true)
    expect(result.stderr).toContain(`yarn add @acme/util --registry ${setup.mirror.url}\n`)
  })

  it('recovers from a corrupted tarball on the mirror', async () => {
    setup = await primaryAndMirror({ kind: 'corrupt' })
    const result = await runCli(['yarn', 'add', 'left-pad-x'], { cwd: setup.project, env: envWithTool('yarn1') })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.all).toMatch(/Integrity check failed/)
    expect(setup.mirror.requests).toContain('/left-pad-x/-/left-pad-x-1.0.0.tgz')
  })

  it('tells, when it gives up, that yarn.lock pins the registry', async () => {
    setup = await primaryAndMirror({ kind: 'reset' }, {
      'yarn.lock': '# yarn lockfile v1\n\n\nleft-pad-x@^1.0.0:\n  version "1.0.0"\n  resolved "http://127.0.0.1:9/left-pad-x/-/left-pad-x-1.0.0.tgz#0"\n',
      'package.json': JSON.stringify({ name: 'p', version: '1.0.0', dependencies: { 'left-pad-x': '^1.0.0' } }),
    })
    const result = await runCli(['--max-attempts', '2', 'yarn', 'install', '--frozen-lockfile'], { cwd: setup.project, env: envWithTool('yarn1') })
    expect(result.exitCode).not.toBe(0)
    expect(result.stderr).toMatch(/yarn\.lock pins 1 package to 127\.0\.0\.1:9: yarn 1 downloads them from there on every attempt/)
    expect(readFileSync(join(setup.project, 'yarn.lock'), 'utf8')).toContain('127.0.0.1:9')
  })
})
