import { describe, expect, it } from 'vitest'
import { pipUntrustedHost } from '../../../../src/diagnose/rules/pip-untrusted-host.js'
import { describeRule, matchOf } from '../rule-cases.js'

describeRule(pipUntrustedHost, {
  matches: [
    'pip/captured-ssl-untrusted-host',
  ],
  ignores: [
    'pip/captured-dns',
    'pip/py-024-ssl',
  ],
})

describe('pip-untrusted-host reads facts', () => {
  it('from pip/captured-ssl-untrusted-host', () => expect(matchOf(pipUntrustedHost, 'pip/captured-ssl-untrusted-host').facts?.host).toBe('no-such-host.invalid'))
})
