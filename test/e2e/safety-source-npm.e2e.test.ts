import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildTarball, startNpmRegistry, type NpmRegistry } from '../helpers/fake-npm-registry.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'
import { envWithTool } from '../helpers/npm-registries.js'

// resilient decides from the .npmrc the tool really reads. The private registry answers 503; a public mirror (a
// local server standing in for one) carries a look-alike `acme-cli 9.9.9`. The mirror must receive no request.
const LOOK_ALIKE = [buildTarball({ name: 'acme-cli', version: '9.9.9' })]
const registries: NpmRegistry[] = []
afterEach(async () => { await Promise.all(registries.splice(0).map(registry => registry.close())) })

// yarn 1 retries a 5xx itself for ~12 s; a private registry that refuses (403) fails it at once. npm and pnpm retry a
// 503 for ~70 s by themselves, which resilient leaves as it is: these tests set their retries to none, as a person may,
// since they are about where the install goes, not about the tool's own retries.
const NO_TOOL_RETRIES = { npm_config_fetch_retries: '0' }
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
    const result = await runCli([...argv], { cwd, env: envWithTool(tool, NO_TOOL_RETRIES) })
    expect(result.exitCode, result.all).not.toBe(0)
    expect(mirror.requests, result.all).toEqual([])
    expect(priv.requests.length, result.all).toBeGreaterThan(0)
    expect(result.stderr).not.toMatch(/on mirror/)
  }, 90_000)

  it('npm install in a workspace package: the workspace root\'s .npmrc names the private registry', async () => {
    const { priv, mirror } = await privateAndMirror()
    const root = project({ npm: { mirrors: [mirror.url] } }, { 'package.json': pkg('root', { workspaces: ['packages/*'] }), '.npmrc': `registry=${priv.url}\n`, 'packages/app/package.json': pkg('app') })
    const result = await runCli(['npm', 'install', 'acme-cli'], { cwd: join(root, 'packages', 'app'), env: envWithTool('npm', NO_TOOL_RETRIES) })
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
    const result = await runCli(['npm', 'install', '-g', 'acme-cli'], { cwd, env: envWithTool('npm', { npm_config_prefix: prefix, ...NO_TOOL_RETRIES }) })
    expect(result.exitCode, result.all).not.toBe(0)
    expect(mirror.requests, result.all).toEqual([])
    expect(publicIndex.requests, result.all).toEqual([])
    expect(priv.requests.length, result.all).toBeGreaterThan(0)
  }, 90_000)
})

describe('--replace-registry-host never reaches a private registry with the same host name', () => {
  // npm matches the option against the host name of every `resolved` URL, scoped packages' included (npm 11 ignores
  // the port of a URL given to it): a mirror attempt would send the private tarball requests to the mirror.
  it('npm ci on a mirror: the lockfile pins a public registry and a private scope registry on another port of 127.0.0.1', async () => {
    const leftPad = buildTarball({ name: 'left-pad-x', version: '1.0.0' })
    const secret = buildTarball({ name: '@acme/util', version: '2.0.0' })
    const publicIndex = await startNpmRegistry({ packages: [leftPad] })
    const priv = await startNpmRegistry({ packages: [secret] })
    // The mirror carries the public package, and a look-alike of the private one.
    const mirror = await startNpmRegistry({ packages: [leftPad, buildTarball({ name: '@acme/util', version: '2.0.0', files: { 'index.js': 'module.exports = "look-alike"\n' } })] })
    registries.push(publicIndex, priv, mirror)
    const lock = { name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages: {
      '': { name: 'app', version: '1.0.0', dependencies: { 'left-pad-x': '1.0.0', '@acme/util': '2.0.0' } },
      'node_modules/left-pad-x': { version: '1.0.0', resolved: `${publicIndex.url}left-pad-x/-/left-pad-x-1.0.0.tgz`, integrity: leftPad.integrity },
      'node_modules/@acme/util': { version: '2.0.0', resolved: `${priv.url}@acme/util/-/util-2.0.0.tgz`, integrity: secret.integrity },
    } }
    const cwd = project({ npm: { index: publicIndex.url, mirrors: [] } }, {
      'package.json': pkg('app', { dependencies: lock.packages[''].dependencies }), 'package-lock.json': JSON.stringify(lock, null, 2), '.npmrc': `@acme:registry=${priv.url}\n`,
    })
    // An attempt on the mirror first (--mirror), as after a failure of the public registry.
    const args = ['--mirror', mirror.url, 'npm', 'ci']
    const dryRun = await runCli(['--dry-run', ...args], { cwd, env: envWithTool('npm') })
    // The plan says which hosts the attempt really contacts: both pinned registries, since neither is redirected.
    expect(dryRun.stdout).not.toMatch(/replace-registry-host/)
    expect(dryRun.stderr).toContain(`contacts 127.0.0.1:${mirror.port}, 127.0.0.1:${publicIndex.port} (pinned in the lockfile), 127.0.0.1:${priv.port} (pinned in the lockfile)`)
    expect(dryRun.stderr).toMatch(/shares its host name with your private registry/)
    const report = join(mkdtempSync(join(tmpdir(), 'resilient-report-')), 'report.json')
    const result = await runCli(['--report', report, ...args], { cwd, env: envWithTool('npm') })
    expect(mirror.requests.filter(path => path.includes('@acme')), result.all).toEqual([])
    expect(result.exitCode, result.all).toBe(0)
    expect(priv.requests, result.all).toContain('/@acme/util/-/util-2.0.0.tgz')
    expect(JSON.parse(readFileSync(report, 'utf8')).attempts[0].hosts).toEqual([`127.0.0.1:${mirror.port}`, `127.0.0.1:${publicIndex.port}`, `127.0.0.1:${priv.port}`])
  }, 90_000)
})
