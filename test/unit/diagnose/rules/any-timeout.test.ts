import { describe, expect, it } from 'vitest'
import { anyTimeout } from '../../../../src/diagnose/rules/any-timeout.js'
import { describeRule, matchOf } from '../rule-cases.js'

describeRule(anyTimeout, {
  matches: [
    'yarn-berry/captured-timeout-no-response',
    'go/captured-timeout-tls-handshake',
    'cargo/captured-timeout',
    'conda/cj-010-timeout',
    'conda/cj-011-timeout',
    'conda/cj-012-timeout',
    'mamba/cj-020-timeout',
    'npm/cj-093-timeout',
    'pdm/py-216-timeout',
    'pdm/py-218-timeout',
    'pip/py-004-timeout',
    'pip/py-124-timeout',
    'pip/py-125-timeout',
    'pnpm/cj-166-timeout',
    'pnpm/cj-167-timeout',
    'pnpm/cj-168-timeout',
    'poetry/py-176-timeout',
    'uv/py-136-timeout',
    'uv/py-137-timeout',
    'uv/py-138-timeout',
    'yarn/cj-181-timeout',
  ],
  ignores: [
    'pip/py-030-connection',
    'npm/cj-097-connection',
    'npm/cj-135-server-error',
  ],
})

describe('any-timeout reads facts', () => {
  it('from pnpm/cj-168-timeout', () => {
    const match = matchOf(anyTimeout, 'pnpm/cj-168-timeout')
    expect(match.evidence[0]).toContain('408')
  })
})
