import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { withRelay, type RelayRequest } from '../../../../src/plan/relay.js'
import { pipx } from '../../../../src/tools/pipx.js'
import { planIn } from '../../../helpers/plan-helpers.js'

const cwd = mkdtempSync(join(tmpdir(), 'resilient-pipx-relay-'))
const SECRET = 's'.repeat(43)
const NO_CONFIG = { PIP_CONFIG_FILE: '/dev/null' }
const context = (args: string, env: NodeJS.ProcessEnv = {}) => ({ args: args.split(' '), env: { ...NO_CONFIG, ...env }, cwd, home: cwd })
const throughRelay = (args: string, env: NodeJS.ProcessEnv = {}) => {
  const request: RelayRequest = { enabled: true, address: () => ({ host: '127.9.8.7', port: 21_000, secret: SECRET }), trust: pipx.relay!.trust(context(args, env)),
    secrets: { scratch: { path: cwd }, env: { ...NO_CONFIG, ...env } } }
  return withRelay(planIn(pipx, args, cwd, {}, { env: { ...NO_CONFIG, ...env } }), request)
}

describe('pipx through the relay', () => {
  it('is pointed by variables pipx passes to pip and never records, the secret in a netrc', () => {
    const { command } = throughRelay('install black').attempts[0]!
    expect(command.argv).toEqual(['pipx', 'install', 'black'])
    const relay = 'http://127.9.8.7:21000/simple/'
    expect(command.env).toMatchObject({ PIP_INDEX_URL: relay, UV_INDEX_URL: relay, PIP_TRUSTED_HOST: '127.9.8.7:21000' })
    expect(command.files![0]!.content).toContain(`machine 127.9.8.7 login resilient password ${SECRET}`)
    expect(command.env.NETRC).toBe(command.files![0]!.path)
  })

  it('keeps the person\'s own trusted hosts beside the relay\'s', () => {
    expect(throughRelay('install black', { PIP_TRUSTED_HOST: 'devpi.internal' }).attempts[0]!.command.env.PIP_TRUSTED_HOST).toBe('devpi.internal 127.9.8.7:21000')
  })

  it.each([
    ['install --backend uv black', {}, /--backend uv/],
    ['install black', { PIPX_DEFAULT_BACKEND: 'uv' }, /uv \(PIPX_DEFAULT_BACKEND=uv\)/],
    ['install --pip-args=--client-cert=/me.pem black', {}, /client certificate/],
    ['install --pip-args=--report=/tmp/r.json black', {}, /records download URLs/],
    ['install --pip-args=--trusted-host=pypi.org black', {}, /does not verify TLS for pypi\.org/],
    ['install black', { UV_INSECURE_HOST: 'pypi.org' }, /does not verify TLS for pypi\.org/],
    ['install black', { SSL_CLIENT_CERT: '/me.pem' }, /client certificate for its uv backend/],
    ['install --pip-args=--proxy=http://proxy.example:3128 black', {}, /proxy/],
    ['install --index-url https://pypi.org/simple black', {}, /on its command line/],
  ])('not for %s %j', (args, env, reason) => {
    const plan = throughRelay(args, env)
    expect(plan.relay).toBeUndefined()
    expect(plan.noRelayReason).toMatch(reason)
  })

  it('reads pip\'s trust and timeout from --pip-args, as pipx hands them to pip', () => {
    expect(pipx.relay!.trust(context('install --pip-args=--cert=/etc/corp.pem black')).ca).toEqual({ path: '/etc/corp.pem', origin: '--cert' })
    expect(pipx.relay!.readTimeoutMs(context('install --pip-args=--timeout=40 black'))).toBe(40_000)
    expect(pipx.relay!.readTimeoutMs(context('install black', { PIP_TIMEOUT: '6' }))).toBe(6_000)
  })

  it('keeps pages on the index with a private extra index in --pip-args or PIP_EXTRA_INDEX_URL', () => {
    for (const plan of [throughRelay('install --pip-args=--extra-index-url=https://corp.example/simple black'), throughRelay('install black', { PIP_EXTRA_INDEX_URL: 'https://corp.example/simple' })]) {
      expect(plan.relay!.pages.failover).toBe(false)
      expect(plan.attempts).toHaveLength(1)
    }
  })
})
