import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/run-cli.js'
import { envWithTool, installed, primaryAndMirror, served, type Setup } from '../helpers/npm-registries.js'

// The real yarn 4 (@yarnpkg/cli-dist) started as `yarn`: resilient tells it from yarn 1 by `yarn --version`.
const env = () => envWithTool('berry', { YARN_ENABLE_TELEMETRY: '0', YARN_NODE_LINKER: 'node-modules', YARN_ENABLE_GLOBAL_CACHE: 'false' })

describe('resilient yarn (real yarn berry)', () => {
  let setup: Setup | undefined
  afterEach(async () => { await setup?.close() })

  it('recovers from a 503 on the mirror through YARN_NPM_REGISTRY_SERVER only', async () => {
    setup = await primaryAndMirror({ kind: 'status', status: 503 })
    const result = await runCli(['yarn', 'add', '@acme/util'], { cwd: setup.project, env: env() })
    expect(result.exitCode, result.all).toBe(0)
    expect(installed(setup.project, '@acme/util') && installed(setup.project, 'left-pad-x')).toBe(true)
    expect(served(setup.mirror, '@acme/util')).toBe(true)
    const mirror = setup.mirror.url.replace(/\/$/, '')
    expect(result.stderr).toContain(`YARN_NPM_REGISTRY_SERVER=${mirror} YARN_UNSAFE_HTTP_WHITELIST=127.0.0.1 YARN_NPM_AUTH_TOKEN='' YARN_NPM_AUTH_IDENT='' YARN_NPM_ALWAYS_AUTH=false yarn add @acme/util`)
    // Berry's lockfile names no registry, so nothing of the mirror is written into the project.
    expect(readFileSync(join(setup.project, 'yarn.lock'), 'utf8')).not.toContain('127.0.0.1')
  })

  it('recovers from a connection reset on the mirror', async () => {
    setup = await primaryAndMirror({ kind: 'reset' })
    const result = await runCli(['yarn', 'add', 'left-pad-x'], { cwd: setup.project, env: env() })
    expect(result.exitCode, result.all).toBe(0)
    expect(served(setup.mirror, 'left-pad-x')).toBe(true)
  })
})
