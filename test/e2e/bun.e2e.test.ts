import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/run-cli.js'
import { envWithTool, installed, primaryAndMirror, served, type Setup } from '../helpers/npm-registries.js'

// The real bun (the `bun` devDependency ships the binary) against registries on 127.0.0.1, through the built CLI.
describe('resilient bun (real bun)', () => {
  let setup: Setup | undefined
  afterEach(async () => { await setup?.close() })

  // bun's 503 line (`error: GET http://host/name - 503`) is not diagnosed yet; a reset is.
  it('recovers from a connection reset on the mirror', async () => {
    setup = await primaryAndMirror({ kind: 'reset' })
    const result = await runCli(['bun', 'add', '@acme/util'], { cwd: setup.project, env: envWithTool('bun') })
    expect(result.exitCode, result.all).toBe(0)
    expect(installed(setup.project, '@acme/util') && installed(setup.project, 'left-pad-x')).toBe(true)
    expect(served(setup.mirror, '@acme/util')).toBe(true)
    expect(result.stderr).toContain(`bun add @acme/util --registry=${setup.mirror.url}`)
  })

  it('recovers from a corrupted tarball on the mirror', async () => {
    setup = await primaryAndMirror({ kind: 'corrupt' })
    const result = await runCli(['bun', 'add', 'left-pad-x'], { cwd: setup.project, env: envWithTool('bun') })
    expect(result.exitCode, result.all).toBe(0)
    expect(setup.mirror.requests).toContain('/left-pad-x/-/left-pad-x-1.0.0.tgz')
    expect(installed(setup.project, 'left-pad-x')).toBe(true)
  })
})
