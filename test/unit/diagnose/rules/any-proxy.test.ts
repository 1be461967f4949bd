import { describe, expect, it } from 'vitest'
import { anyProxy } from '../../../../src/diagnose/rules/any-proxy.js'
import { describeRule, matchOf } from '../rule-cases.js'

describeRule(anyProxy, {
  matches: [
    'pip/captured-proxy-407-git',
    'yarn/captured-proxy-407',
    'cargo/captured-proxy-407',
    'conda/cj-017-proxy',
    'go/captured-proxy',
    'npm/cj-118-proxy',
    'pip/py-031-proxy',
    'pip/py-032-proxy',
    'pip/py-161-proxy',
    'pip/py-213-proxy',
  ],
  ignores: [
    'pip/py-004-timeout',
    'npm/cj-093-timeout',
    'npm/cj-097-connection',
  ],
})

describe('any-proxy reads facts', () => {
  it('names the proxy, not the index, from go/captured-proxy', () => {
    const match = matchOf(anyProxy, 'go/captured-proxy')
    expect(match.facts).toMatchObject({ host: '127.0.0.1', hostRole: 'proxy' })
  })
  it('from pip/py-161-proxy', () => {
    const match = matchOf(anyProxy, 'pip/py-161-proxy')
    expect(match.evidence.join(' ')).toContain('407 Proxy Authentication Required')
  })
})
