import { describe, expect, it } from 'vitest'
import { anyDns } from '../../../../src/diagnose/rules/any-dns.js'
import { describeRule, matchOf } from '../rule-cases.js'

describeRule(anyDns, {
  matches: [
    'bun/captured-dns',
    'cargo/captured-dns',
    'go/captured-dns',
    'micromamba/cj-026-dns',
    'npm/cj-108-dns',
    'pip/py-008-dns',
    'pip/py-010-dns',
    'pip/py-012-dns',
    'pip/py-016-dns',
    'uv/py-015-dns',
    'uv/py-017-dns',
    'uv/py-019-dns',
    'uv/py-020-dns',
    'uv/py-153-dns',
  ],
  ignores: [
    'pip/py-030-connection',
    'pip/py-125-timeout',
    'uv/py-136-timeout',
  ],
})

describe('any-dns reads facts', () => {
  it('from pip/py-016-dns', () => {
    const match = matchOf(anyDns, 'pip/py-016-dns')
    expect(match.evidence[0]).toContain('11001')
  })
  it('from cargo/captured-dns', () => {
    const match = matchOf(anyDns, 'cargo/captured-dns')
    expect(match.facts?.host).toBe('no-such-host.invalid')
  })
})
