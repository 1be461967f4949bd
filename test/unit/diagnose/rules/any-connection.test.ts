import { describe, expect, it } from 'vitest'
import { diagnose } from '../../../../src/diagnose/index.js'
import { anyConnection } from '../../../../src/diagnose/rules/any-connection.js'
import { describeRule, fixture, matchOf } from '../rule-cases.js'

describeRule(anyConnection, {
  matches: [
    'bun/captured-connection',
    'conda/r3-ip-13-connection',
    'cargo/captured-connection',
    'go/captured-connection',
    'micromamba/cj-021-connection',
    'npm/cj-097-connection',
    'npm/cj-099-connection',
    'pip/py-030-connection',
    'pip/py-160-connection',
    'pip/py-212-connection',
    'pnpm/cj-169-connection',
    'poetry/py-177-connection',
  ],
  ignores: [
    'pip/py-034-http-auth',
    'conda/cj-028-http-auth',
    'npm/cj-133-server-error',
  ],
})

describe('any-connection reads facts', () => {
  it('from pip/py-212-connection', () => {
    const match = matchOf(anyConnection, 'pip/py-212-connection')
    expect(match.evidence[0]).toContain('(ECONNRESET)')
  })
})

it('yields to the proxy when urllib3 wraps the refusal in a ProxyError', () => {
  expect(diagnose(fixture('pip/py-031-proxy')).category).toBe('proxy')
  expect(diagnose(fixture('pip/py-213-proxy')).category).toBe('proxy')
})
