import { execa } from 'execa'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startNpmRegistry, type NpmRegistry } from '../helpers/fake-npm-registry.js'
import { buildWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'
import { envWithTool, PACKAGES, primaryAndMirror, served, type Setup } from '../helpers/npm-registries.js'

// Every spelling the real tool accepts for its index is the user's choice. The private registry answers
// 503; a healthy mirror named in the config must never be asked, and the run says why no mirror was used.
const npmRegistries: NpmRegistry[] = []
afterEach(async () => { await Promise.all(npmRegistries.splice(0).map(registry => registry.close())) })

async function privateAndMirror(): Promise<{ priv: NpmRegistry; mirror: NpmRegistry; project: string }> {
  const priv = await startNpmRegistry({ packages: PACKAGES, fault: { kind: 'status', status: 503 } })
  const mirror = await startNpmRegistry({ packages: PACKAGES })
  npmRegistries.push(priv, mirror)
  const project = projectWithConfig({ npm: { mirrors: [mirror.url] }, maxAttempts: 2, maxWaitSeconds: 1 })
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', private: true }))
  return { priv, mirror, project }
}

describe('real npm and pnpm: spellings of a private registry', () => {
  it.each([
    ['npm', (url: string) => ['npm', 'install', '-registry', url, 'left-pad-x']],
    ['npm', (url: string) => ['npm', 'install', `-reg=${url}`, 'left-pad-x']],
    ['npm', (url: string) => ['npm', 'install', `--regis=${url}`, 'left-pad-x']],
    ['pnpm', (url: string) => ['pnpm', 'add', `--config.registry=${url}`, 'left-pad-x']],
    ['pnpm', (url: string) => ['pnpm', 'add', `-registry=${url}`, 'left-pad-x']],
  ] as const)('%s %#: the private registry is asked, the mirror never', async (tool, args) => {
    const { priv, mirror, project } = await privateAndMirror()
    // The tool's own retries of a 503 (10 s, then 60 s apart) set to none, as a person may: the test is about spellings.
    const result = await runCli(args(priv.url), { cwd: project, env: envWithTool(tool, { npm_config_fetch_retries: '0' }) })
    expect(result.exitCode, result.all).not.toBe(0)
    expect(served(priv, 'left-pad-x'), result.all).toBe(true)
    expect(mirror.requests, result.all).toEqual([])
    expect(result.stderr).not.toMatch(/on mirror/)
  })

  it('npm with a token for the public registry in ~/.npmrc keeps its mirrors, and the token is printed nowhere (dry run)', async () => {
    const env = envWithTool('npm')
    writeFileSync(join(env.HOME!, '.npmrc'), '//registry.npmjs.org/:_authToken=npm_0123456789abcdefghijklmnopqrstuvwxyz\n')
    const project = projectWithConfig({})
    const result = await runCli(['--dry-run', '--verbose', 'npm', 'install', 'left-pad'], { cwd: project, env })
    expect(result.stdout.trim().split('\n').length).toBeGreaterThan(1)
    expect(result.stderr).not.toMatch(/you hold credentials/)
    expect(result.all).not.toContain('npm_0123456789')
  })
})

describe('real yarn berry: the user\'s token never reaches a mirror', () => {
  let setup: Setup | undefined
  afterEach(async () => { await setup?.close() })
  it('clears npmAuthToken/npmAlwaysAuth for the mirror attempt, and the mirror is still used', async () => {
    setup = await primaryAndMirror({ kind: 'status', status: 503 }, { '.yarnrc.yml': 'npmAuthToken: "berry-secret-token-42"\nnpmAlwaysAuth: true\n' })
    const env = envWithTool('berry', { YARN_ENABLE_TELEMETRY: '0', YARN_NODE_LINKER: 'node-modules', YARN_ENABLE_GLOBAL_CACHE: 'false' })
    const result = await runCli(['yarn', 'add', 'left-pad-x'], { cwd: setup.project, env })
    expect(result.exitCode, result.all).toBe(0)
    expect(served(setup.mirror, 'left-pad-x')).toBe(true)
    // The user's own registry got the token (it is theirs); the mirror got no Authorization at all.
    expect(setup.primary.authorizations.some(value => value.includes('berry-secret-token-42'))).toBe(true)
    expect(setup.mirror.authorizations).toEqual([])
    expect(result.all).not.toContain('berry-secret-token-42')
  })
})

describe('real pip: spellings of a private index', () => {
  const server = pypiServers()
  const wheels = [buildWheel('demo-pkg', '1.0')]

  it.each([
    (url: string) => ['-qi', url],
    (url: string) => [`-qi${url}`],
    (url: string) => ['-vvi', url],
  ])('pip download %#: the private index is asked, the mirror never', async flags => {
    const priv = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels })
    const cwd = projectWithConfig({ pypi: { mirrors: [mirror.url] }, maxAttempts: 2, maxWaitSeconds: 1 })
    const dest = mkdtempSync(join(tmpdir(), 'resilient-dl-'))
    // pip's own retries of the 503 (about 8 s per attempt) say nothing here: which hosts are asked is the point.
    const result = await runCli(['python3', '-m', 'pip', 'download', '--no-deps', '--retries', '0', '-d', dest, ...flags(priv.url), 'demo-pkg'], { cwd, env: isolatedEnv() })
    expect(result.exitCode, result.all).not.toBe(0)
    expect(priv.requests.length, result.all).toBeGreaterThan(0)
    expect(mirror.requests, result.all).toEqual([])
  })

  it('a virtual environment\'s own pip.conf is honoured without VIRTUAL_ENV', async () => {
    const priv = await server({ wheels, fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels })
    const cwd = projectWithConfig({ pypi: { mirrors: [mirror.url] }, maxAttempts: 2, maxWaitSeconds: 1 })
    const venv = join(cwd, 'venv')
    await execa('python3', ['-m', 'venv', venv], { env: isolatedEnv() })
    expect(existsSync(join(venv, 'bin', 'pip'))).toBe(true)
    writeFileSync(join(venv, 'pip.conf'), `[global]\nindex-url = ${priv.url}\n`)
    // PIP_CONFIG_FILE unset: pip reads its site file, <sys.prefix>/pip.conf, as it would for the user.
    const { PIP_CONFIG_FILE: _, ...env } = isolatedEnv({ PIP_RETRIES: '0' })
    const dest = mkdtempSync(join(tmpdir(), 'resilient-dl-'))
    const result = await runCli([join(venv, 'bin', 'pip'), 'download', '--no-deps', '-d', dest, 'demo-pkg'], { cwd, env: env as Record<string, string> })
    expect(result.exitCode, result.all).not.toBe(0)
    expect(priv.requests.length, result.all).toBeGreaterThan(0)
    expect(mirror.requests, result.all).toEqual([])
  }, 120_000)
})
