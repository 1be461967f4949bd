import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { withRelay } from '../../../../src/plan/relay.js'
import { uv } from '../../../../src/tools/uv.js'
import { planIn } from '../../../helpers/plan-helpers.js'

const cwd = mkdtempSync(join(tmpdir(), 'resilient-uv-relay-'))
const throughRelay = (args: string, env: NodeJS.ProcessEnv = {}, where = { cwd, home: cwd }) => {
  const context = { args: args.split(' '), env, ...where }
  const unsupported = uv.relay!.unsupportedIn!(context)
  return withRelay(planIn(uv, args, where.cwd, {}, { env }), {
    enabled: true, address: () => ({ host: '127.9.8.7', port: 21_000, secret: 's'.repeat(43) }), trust: uv.relay!.trust(context),
    secrets: { scratch: { path: cwd }, env: {} }, ...(unsupported && { unsupported }),
  })
}

describe('uv through the relay', () => {
  it('uv pip install: UV_DEFAULT_INDEX, the secret in a netrc', () => {
    const { command } = throughRelay('pip install requests').attempts[0]!
    expect(command.argv).toEqual(['uv', 'pip', 'install', 'requests'])
    expect(command.env.UV_DEFAULT_INDEX).toBe('http://127.9.8.7:21000/simple/')
    expect(command.files![0]!.content).toContain(`machine 127.9.8.7 login resilient password ${'s'.repeat(43)}`)
  })

  it('an index on the command line gets the relay\'s URL in its place', () => {
    expect(throughRelay('pip install --default-index https://pypi.org/simple requests').attempts[0]!.command.argv).toEqual(['uv', 'pip', 'install', '--default-index', 'http://127.9.8.7:21000/simple/', 'requests'])
  })

  it.each([
    ['lock', {}, /uv\.lock/],
    ['sync', {}, /uv\.lock/],
    ['add requests', {}, /uv\.lock/],
    ['tool install ruff', {}, /receipt/],
    ['pip compile --emit-index-url requirements.in', {}, /writes the index's URL/],
    ['pip install --index-strategy unsafe-best-match --extra-index-url https://corp.example/simple x', {}, /merges the versions/],
    ['pip install x', { UV_INDEX_STRATEGY: 'unsafe-first-match', UV_INDEX: 'https://corp.example/simple' }, /merges the versions/],
    ['pip install x', { UV_INSECURE_HOST: 'pypi.org' }, /does not verify TLS for pypi\.org/],
    ['pip install --allow-insecure-host pypi.org x', {}, /does not verify TLS/],
    ['pip install x', { SSL_CLIENT_CERT: '/me.pem' }, /client certificate/],
    ['pip install x', { UV_INDEX_CORP_PASSWORD: 'p' }, /credentials .*UV_INDEX_CORP_PASSWORD/],
    ['pip install --keyring-provider subprocess x', {}, /keyring provider/],
  ])('not for uv %s %j', (args, env, reason) => {
    const plan = throughRelay(args, env)
    expect(plan.relay).toBeUndefined()
    expect(plan.noRelayReason).toMatch(reason)
  })

  // uv reads its strategy and its indexes from config files as from its command line (uv-settings settings.rs).
  const inProject = (files: Record<string, string>) => {
    const root = mkdtempSync(join(tmpdir(), 'resilient-uv-config-'))
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true })
      writeFileSync(join(root, path), content)
    }
    return { cwd: join(root, 'project'), home: join(root, 'home') }
  }
  const PRIVATE_INDEX = '[[index]]\nname = "corp"\nurl = "https://corp.example/simple"\n'

  it.each([
    ['the project\'s uv.toml', { 'project/uv.toml': `index-strategy = "unsafe-best-match"\n${PRIVATE_INDEX}` }, {}, /unsafe-best-match \(.*project\/uv\.toml index-strategy\)/],
    ['[tool.uv.pip] of pyproject.toml, an index in the environment', { 'project/pyproject.toml': '[tool.uv.pip]\nindex-strategy = "unsafe-first-match"\n' }, { UV_EXTRA_INDEX_URL: 'https://corp.example/simple' }, /unsafe-first-match/],
    ['the user\'s uv.toml, with extra-index-url', { 'home/.config/uv/uv.toml': 'index-strategy = "unsafe-best-match"\nextra-index-url = ["https://corp.example/simple"]\n', 'project/.keep': '' }, {}, /home\/\.config\/uv\/uv\.toml/],
  ])('not where %s merges a private index', (_, files, env, reason) => {
    const plan = throughRelay('pip install x', env, inProject(files))
    expect(plan.relay).toBeUndefined()
    expect(plan.noRelayReason).toMatch(reason)
  })

  it.each([
    ['an unsafe strategy with no other index', { 'project/uv.toml': 'index-strategy = "unsafe-best-match"\n' }, 'pip install x'],
    ['another index under the first-index strategy', { 'project/uv.toml': PRIVATE_INDEX }, 'pip install x'],
    ['a config file --no-config leaves out', { 'project/uv.toml': `index-strategy = "unsafe-best-match"\n${PRIVATE_INDEX}` }, 'pip install --no-config x'],
  ])('still relayed with %s', (_, files, args) => {
    expect(throughRelay(args, {}, inProject(files)).relay).toBeDefined()
  })

  it('reads uv\'s own CA bundle and read timeout', () => {
    expect(uv.relay!.trust({ args: ['pip', 'install', 'x'], env: { SSL_CERT_FILE: '/etc/corp.pem' }, cwd, home: cwd }).ca).toEqual({ path: '/etc/corp.pem', origin: 'SSL_CERT_FILE' })
    expect(uv.relay!.readTimeoutMs({ args: [], env: { UV_HTTP_TIMEOUT: '90' }, cwd, home: cwd })).toBe(90_000)
    expect(uv.relay!.readTimeoutMs({ args: [], env: {}, cwd, home: cwd })).toBe(30_000)
  })
})
