import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/run-cli.js'
import { envWithTool, installed, primaryAndMirror, served, type Setup } from '../helpers/npm-registries.js'

// The real pnpm 10 (a devDependency) against registries on 127.0.0.1, through the built CLI.
describe('resilient pnpm (real pnpm)', () => {
  let setup: Setup | undefined
  afterEach(async () => { await setup?.close() })

  it('recovers from a 503 on the mirror (your own --fetch-retries=0: at once)', async () => {
    setup = await primaryAndMirror({ kind: 'status', status: 503 })
    // pnpm's own retries are kept (10 s, then 60 s apart by default); set to none, the mirror is tried at once.
    const result = await runCli(['pnpm', 'add', '@acme/util', '--fetch-retries=0'], { cwd: setup.project, env: envWithTool('pnpm') })
    expect(result.exitCode, result.all).toBe(0)
    expect(installed(setup.project, '@acme/util')).toBe(true)
    expect(served(setup.mirror, '@acme/util') && served(setup.mirror, 'left-pad-x')).toBe(true)
    expect(result.stderr).toContain(`pnpm add @acme/util --fetch-retries=0 --registry=${setup.mirror.url}\n`)
  })

  it('recovers from a corrupted tarball on the mirror', async () => {
    setup = await primaryAndMirror({ kind: 'corrupt' })
    // pnpm retries a corrupted download itself first (10 s, then 60 s apart); none here, as a person may set it.
    const result = await runCli(['pnpm', 'add', 'left-pad-x', '--fetch-retries=0'], { cwd: setup.project, env: envWithTool('pnpm') })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.all).toMatch(/integrity/i)
    expect(setup.mirror.requests).toContain('/left-pad-x/-/left-pad-x-1.0.0.tgz')
    expect(installed(setup.project, 'left-pad-x')).toBe(true)
  })

  it('keeps a registry from .npmrc: retried, never replaced', async () => {
    setup = await primaryAndMirror({ kind: 'status', status: 503 })
    writeFileSync(join(setup.project, '.resilientrc.json'), JSON.stringify({ npm: { mirrors: [setup.mirror.url] }, maxAttempts: 2, maxWaitSeconds: 1 }))
    writeFileSync(join(setup.project, '.npmrc'), `registry=${setup.primary.url}\n`)
    const result = await runCli(['pnpm', 'add', 'left-pad-x', '--fetch-retries=0'], { cwd: setup.project, env: envWithTool('pnpm') })
    expect(result.exitCode).not.toBe(0)
    expect(served(setup.primary, 'left-pad-x')).toBe(true)
    expect(setup.mirror.requests).toEqual([])
  })
})
