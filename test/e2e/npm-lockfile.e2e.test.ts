import { execa } from 'execa'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/run-cli.js'
import { envWithTool, installed, PACKAGES, primaryAndMirror, type Setup } from '../helpers/npm-registries.js'

// A mirror is for one invocation only: after the real npm or yarn 1 succeeded on it, the lockfile must name the
// registry the project uses, with the integrity the mirror served, so a later plain install never needs the mirror.
const [leftPad, util] = PACKAGES as [typeof PACKAGES[0], typeof PACKAGES[0]]

describe('lockfiles after an install on a mirror (real npm and yarn 1)', () => {
  let setup: Setup | undefined
  afterEach(async () => { await setup?.close() })

  it('npm: package-lock.json names the primary registry, not the mirror', async () => {
    setup = await primaryAndMirror({ kind: 'blackhole' })
    const env = envWithTool('npm')
    const result = await runCli(['npm', 'install', '@acme/util'], { cwd: setup.project, env })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toContain(`--registry=${setup.mirror.url}`)
    expect(result.stderr).toContain('restored 2 registry URLs in package-lock.json: no mirror URL stays in it')

    const text = readFileSync(join(setup.project, 'package-lock.json'), 'utf8')
    expect(text).not.toContain(setup.mirror.url)
    expect(text.endsWith('}\n')).toBe(true)
    const { packages } = JSON.parse(text) as { packages: Record<string, { resolved?: string; integrity?: string }> }
    expect(packages['node_modules/@acme/util']).toMatchObject({ resolved: `${setup.primary.url}@acme/util/-/util-2.0.0.tgz`, integrity: util.integrity })
    expect(packages['node_modules/left-pad-x']).toMatchObject({ resolved: `${setup.primary.url}left-pad-x/-/left-pad-x-1.0.0.tgz`, integrity: leftPad.integrity })

    // Once the primary is back, a plain `npm ci` installs from it alone.
    setup.primary.setFault({ kind: 'ok' })
    const mirrorRequests = setup.mirror.requests.length
    rmSync(join(setup.project, 'node_modules'), { recursive: true })
    const ci = await execa('npm', ['ci', '--no-audit', `--cache=${mkdtempSync(join(tmpdir(), 'npm-cache-'))}`], { cwd: setup.project, env, extendEnv: false, reject: false, all: true })
    expect(ci.exitCode, ci.all).toBe(0)
    expect(installed(setup.project, '@acme/util') && installed(setup.project, 'left-pad-x')).toBe(true)
    expect(setup.primary.requests).toContain('/@acme/util/-/util-2.0.0.tgz')
    expect(setup.mirror.requests.length).toBe(mirrorRequests)
  })

  it('yarn 1: yarn.lock names the primary registry, with the sha1 the mirror served', async () => {
    setup = await primaryAndMirror({ kind: 'reset' })
    const env = envWithTool('yarn1')
    const result = await runCli(['yarn', 'add', '@acme/util'], { cwd: setup.project, env })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stderr).toContain(`--registry ${setup.mirror.url}`)
    expect(result.stderr).toContain('restored 2 registry URLs in yarn.lock: no mirror URL stays in it')

    const text = readFileSync(join(setup.project, 'yarn.lock'), 'utf8')
    expect(text).not.toContain(setup.mirror.url)
    expect(text).toContain(`  resolved "${setup.primary.url}@acme/util/-/util-2.0.0.tgz#${util.shasum}"\n  integrity ${util.integrity}\n`)
    expect(text).toContain(`  resolved "${setup.primary.url}left-pad-x/-/left-pad-x-1.0.0.tgz#${leftPad.shasum}"\n  integrity ${leftPad.integrity}\n`)

    // yarn 1 fetches locked packages from their `resolved` URLs: with an empty cache, all from the primary.
    setup.primary.setFault({ kind: 'ok' })
    const mirrorRequests = setup.mirror.requests.length
    rmSync(join(setup.project, 'node_modules'), { recursive: true })
    const install = await execa('yarn', ['install', '--frozen-lockfile', '--cache-folder', mkdtempSync(join(tmpdir(), 'yarn-cache-'))], { cwd: setup.project, env, extendEnv: false, reject: false, all: true })
    expect(install.exitCode, install.all).toBe(0)
    expect(installed(setup.project, '@acme/util') && installed(setup.project, 'left-pad-x')).toBe(true)
    expect(setup.primary.requests).toContain('/left-pad-x/-/left-pad-x-1.0.0.tgz')
    expect(setup.mirror.requests.length).toBe(mirrorRequests)
  })
})
