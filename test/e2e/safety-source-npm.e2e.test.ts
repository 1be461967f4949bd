import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildTarball, startNpmRegistry, type NpmRegistry } from '../helpers/fake-npm-registry.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig } from './helpers.js'
import { envWithTool } from './npm-registries.js'

// resilient decides from the .npmrc the tool really reads. The private registry answers 503; a public mirror (a
// local server standing in for one) carries a look-alike `acme-cli 9.9.9`. The mirror must receive no request.
const LOOK_ALIKE = [buildTarball({ name: 'acme-cli', version: '9.9.9' })]
const registries: NpmRegistry[] = []
afterEach(async () => { await Promise.all(registries.splice(0).map(registry => registry.close())) })

// yarn 1 retries a 5xx itself for ~12 s; a private registry that refuses (403) fails it at once.
async function privateAndMirror(status = 503): Promise<{ priv: NpmRegistry; mirror: NpmRegistry }> {
  const priv = await startNpmRegistry({ packages: [], fault: { kind: 'status', status } })
  const mirror = await startNpmRegistry({ packages: LOOK_ALIKE })
  registries.push(priv, mirror)
  return { priv, mirror }
}

/** A project folder with resilient's config naming the mirror, and the files given (paths relative to it). */
function project(config: Record<string, unknown>, files: Record<string, string>): string {
  const dir = projectWithConfig({ maxAttempts: 2, maxWaitSeconds: 1, ...config })
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  return dir
}

const pkg = (name: string, extra: Record<string, unknown> = {}) => JSON.stringify({ name, version: '1.0.0', private: true, ...extra })

describe('the .npmrc the tool reads, not the working folder\'s', () => {
  it.each([
    ['npm install --prefix frontend', 'npm', ['npm', 'install', '--prefix', 'frontend', 'acme-cli']],
    ['pnpm -C frontend add', 'pnpm', ['pnpm', '-C', 'frontend', 'add', 'acme-cli']],
    ['yarn --cwd frontend add', 'yarn1', ['yarn', '--cwd', 'frontend', 'add', 'acme-cli']],
  ] as const)('%s: frontend/.npmrc names the private registry', async (_, tool, argv) => {
    const { priv, mirror } = await privateAndMirror(tool === 'yarn1' ? 403 : 503)
    const cwd = project({ npm: { mirrors: [mirror.url] } }, { 'package.json': pkg('root'), 'frontend/package.json': pkg('frontend'), 'frontend/.npmrc': `registry=${priv.url}\n` })
    const result = await runCli([...argv], { cwd, env: envWithTool(tool) })
    expect(result.exitCode, result.all).not.toBe(0)
    expect(mirror.requests, result.all).toEqual([])
    expect(priv.requests.length, result.all).toBeGreaterThan(0)
    expect(result.stderr).not.toMatch(/on mirror/)
  }, 90_000)

  it('npm install in a workspace package: the workspace root\'s .npmrc names the private registry', async () => {
    const { priv, mirror } = await privateAndMirror()
    const root = project({ npm: { mirrors: [mirror.url] } }, { 'package.json': pkg('root', { workspaces: ['packages/*'] }), '.npmrc': `registry=${priv.url}\n`, 'packages/app/package.json': pkg('app') })
    const result = await runCli(['npm', 'install', 'acme-cli'], { cwd: join(root, 'packages', 'app'), env: envWithTool('npm') })
    expect(result.exitCode, result.all).not.toBe(0)
    expect(mirror.requests, result.all).toEqual([])
    expect(priv.requests.length, result.all).toBeGreaterThan(0)
  }, 90_000)

  it('npm install -g ignores the project .npmrc: the global npmrc of a temporary prefix names the private registry', async () => {
    const { priv, mirror } = await privateAndMirror()
    // The project's .npmrc names a registry resilient may replace (its config's index); npm -g never reads it.
    const publicIndex = await startNpmRegistry({ packages: LOOK_ALIKE })
    registries.push(publicIndex)
    const prefix = mkdtempSync(join(tmpdir(), 'resilient-npm-prefix-'))
    mkdirSync(join(prefix, 'etc'))
    writeFileSync(join(prefix, 'etc', 'npmrc'), `registry=${priv.url}\n`)
    const cwd = project({ npm: { index: publicIndex.url, mirrors: [mirror.url] } }, { 'package.json': pkg('root'), '.npmrc': `registry=${publicIndex.url}\n` })
    const result = await runCli(['npm', 'install', '-g', 'acme-cli'], { cwd, env: envWithTool('npm', { npm_config_prefix: prefix }) })
    expect(result.exitCode, result.all).not.toBe(0)
    expect(mirror.requests, result.all).toEqual([])
    expect(publicIndex.requests, result.all).toEqual([])
    expect(priv.requests.length, result.all).toBeGreaterThan(0)
  }, 90_000)
})
