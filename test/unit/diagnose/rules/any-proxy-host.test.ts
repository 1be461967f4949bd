import { describe, expect, it } from 'vitest'
import { anyProxyHost } from '../../../../src/diagnose/rules/any-proxy-host.js'
import { describeRule, matchOf } from '../rule-cases.js'

describeRule(anyProxyHost, {
  matches: [
    'cargo/captured-proxy',
    'npm/cj-103-proxy',
    'npm/cj-107-proxy',
    'npm/cj-120-proxy',
  ],
  ignores: [
    'npm/cj-108-dns',
    'npm/cj-093-timeout',
    'pip/py-008-dns',
  ],
})

describe('any-proxy-host reads facts', () => {
  it('from npm/cj-107-proxy', () => {
    const match = matchOf(anyProxyHost, 'npm/cj-107-proxy')
    expect(match.facts).toMatchObject({ host: 'server', viaProxy: true })
  })
  it('from npm/cj-120-proxy', () => {
    const match = matchOf(anyProxyHost, 'npm/cj-120-proxy')
    expect(match.facts?.host).toBe('141.86.23.101')
  })
  it('from cargo/captured-proxy', () => {
    const match = matchOf(anyProxyHost, 'cargo/captured-proxy')
    expect(match.facts?.viaProxy).toBe(true)
  })
})
