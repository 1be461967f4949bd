import { describe, expect, it } from 'vitest'
import { normalizeFailure } from '../../../../src/diagnose/normalize.js'
import { anyProxyHost } from '../../../../src/diagnose/rules/any-proxy-host.js'
import { describeRule, fixture, matchOf } from '../rule-cases.js'

// The proxy verdict needs a configured proxy at the failing address (the fixture's first line names the proxy the
// capture ran with), or the tool's own line showing it sent the request elsewhere (cj-107: "request to
// https://registry.npm.taobao.org/... failed, reason: getaddrinfo ENOTFOUND server").
describeRule(anyProxyHost, {
  matches: [
    'cargo/captured-proxy',
    'npm/captured-proxy-refused',
    'pnpm/captured-proxy-refused',
    'npm/cj-107-proxy',
    'npm/cj-103-proxy',
    'npm/cj-120-proxy',
  ],
  ignores: [
    'npm/cj-108-dns',
    'npm/cj-093-timeout',
    'pip/py-008-dns',
    'yarn/captured-connection-refused-local',
    'npm/captured-connection-refused-local',
    'pnpm/captured-connection-refused-local',
  ],
})

describe('any-proxy-host needs a configured proxy at the failing address', () => {
  const withProxy = (name: string, proxies: string[]) => anyProxyHost.match(normalizeFailure({ ...fixture(name), proxies }))
  it('calls a refused 141.86.23.101:3128 the proxy when that proxy is configured (npm/cj-120-proxy)', () => {
    expect(withProxy('npm/cj-120-proxy', ['http://141.86.23.101:3128'])?.facts).toMatchObject({ host: '141.86.23.101', viaProxy: true })
  })
  it('calls an unresolved proxy.yourcorp.com:811 the proxy when that proxy is configured (npm/cj-103-proxy)', () => {
    expect(withProxy('npm/cj-103-proxy', ['http://proxy.yourcorp.com:811'])?.facts?.host).toBe('proxy.yourcorp.com')
  })
  it('reads npm 2-6\'s own log of its requests: a name or port none of them had is where npm sent them (npm/cj-103, cj-120)', () => {
    expect(anyProxyHost.match(normalizeFailure(fixture('npm/cj-103-proxy')))?.facts).toMatchObject({ host: 'proxy.yourcorp.com', viaProxy: true })
    expect(anyProxyHost.match(normalizeFailure(fixture('npm/cj-120-proxy')))?.facts).toMatchObject({ host: '141.86.23.101', viaProxy: true })
  })
  it('never guesses from the address alone: without the logged request, a refused :3128 is a refused connection', () => {
    const output = fixture('npm/cj-120-proxy').output.split('\n').filter(line => !/http request GET/.test(line)).join('\n')
    expect(anyProxyHost.match(normalizeFailure({ tool: 'npm', output }))).toBeNull()
    const registry = 'npm http request GET http://registry.npmjs.org/x\nnpm info retry will retry, error on last attempt: Error: connect ECONNREFUSED 104.16.1.35:80\n'
    expect(anyProxyHost.match(normalizeFailure({ tool: 'npm', output: registry }))).toBeNull()
  })
  it('matches a proxy given by name on the port Node connected to', () => {
    expect(withProxy('npm/cj-120-proxy', ['http://proxy.corp.example:3128'])?.facts?.viaProxy).toBe(true)
  })
  it('does not call an address the proxy because another proxy is configured', () => {
    const output = fixture('npm/cj-120-proxy').output.split('\n').filter(line => !/http request GET/.test(line)).join('\n')
    expect(anyProxyHost.match(normalizeFailure({ tool: 'npm', output, proxies: ['http://10.9.9.9:8080'] }))).toBeNull()
  })
  it('does not call a local registry on localhost:4873 a proxy (a stopped Verdaccio)', () => {
    expect(withProxy('yarn/captured-connection-refused-local', [])).toBeNull()
  })
  it('reads the proxy named on the command line (pip --proxy)', () => {
    const failure = normalizeFailure({ tool: 'npm', output: 'npm error FetchError: request to https://registry.npmjs.org/x failed, reason: connect ECONNREFUSED 10.0.0.7:3128\n', command: ['npm', 'install', '--proxy', 'http://10.0.0.7:3128'] })
    expect(anyProxyHost.match(failure)?.facts?.host).toBe('10.0.0.7')
  })
  it('reads facts from npm/cj-107-proxy', () => {
    expect(matchOf(anyProxyHost, 'npm/cj-107-proxy').facts).toMatchObject({ host: 'server', viaProxy: true })
  })
  it('reads facts from cargo/captured-proxy', () => {
    expect(matchOf(anyProxyHost, 'cargo/captured-proxy').facts).toMatchObject({ host: '127.0.0.1', viaProxy: true })
  })
})
