import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/run-cli.js'
import { envWithLinkedYarn, envWithTool, installed, primaryAndMirror, served, type Setup } from '../helpers/npm-registries.js'
import { variantCacheFile } from '../../src/state/variant-cache.js'

// The real yarn 4 (@yarnpkg/cli-dist) started as `yarn`: through a launcher script, which resilient tells from yarn 1
// by `yarn --version`, or linked as npm links it, which it tells by the package (src/tools/yarn-variant.ts).
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

  it('tells a linked yarn 1 from berry by its package, as `yarn --version` says, without asking it; a yarnPath is asked', async () => {
    setup = await primaryAndMirror({ kind: 'status', status: 503 })
    // The form of a mirror attempt says which adapter planned the run: berry's variable, or yarn 1's flag.
    const forms = { berry: 'YARN_NPM_REGISTRY_SERVER=', yarn1: `yarn add left-pad-x --registry ${setup.mirror.url}` } as const
    for (const tool of ['berry', 'yarn1'] as const) {
      const linked = envWithLinkedYarn(tool, { YARN_ENABLE_TELEMETRY: '0' })
      const version = spawnSync('yarn', ['--version'], { cwd: setup.project, env: linked, encoding: 'utf8' }).stdout.trim()
      expect(version.startsWith('1.') ? 'yarn1' : 'berry').toBe(tool)
      const plan = await runCli(['--dry-run', 'yarn', 'add', 'left-pad-x'], { cwd: setup.project, env: linked })
      expect(plan.exitCode, plan.all).toBe(0)
      expect(plan.all).toContain(forms[tool])
      expect(existsSync(variantCacheFile(linked)), 'no `yarn --version` answer kept: none was asked').toBe(false)
    }
    // A yarnPath hands berry's run over to yarn 1: the files cannot tell that for sure, so yarn is asked and says 1.
    const linked = envWithLinkedYarn('berry', { YARN_ENABLE_TELEMETRY: '0' })
    writeFileSync(join(setup.project, '.yarnrc.yml'), `yarnPath: ${JSON.stringify(join(process.cwd(), 'node_modules', 'yarn', 'bin', 'yarn.js'))}\n`)
    const plan = await runCli(['--dry-run', 'yarn', 'add', 'left-pad-x'], { cwd: setup.project, env: linked })
    expect(plan.all).toContain(forms.yarn1)
    expect(existsSync(variantCacheFile(linked))).toBe(true)
  })
})
