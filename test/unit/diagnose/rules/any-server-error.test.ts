import { describe, expect, it } from 'vitest'
import { anyServerError } from '../../../../src/diagnose/rules/any-server-error.js'
import { describeRule, matchOf } from '../rule-cases.js'

describeRule(anyServerError, {
  matches: [
    'bun/captured-server-error',
    'cargo/captured-server-error',
    'conda/cj-036-server-error',
    'go/captured-server-error',
    'npm/cj-133-server-error',
    'npm/cj-135-server-error',
    'pip/py-041-server-error',
    'pip/py-042-server-error',
    'pip/py-203-server-error',
    'yarn/cj-185-server-error',
    'pip/captured-server-error-verbose',
    'pip/captured-server-error-extra-index-verbose',
    'pdm/captured-server-error',
  ],
  ignores: [
    'poetry/py-146-http-auth',
    'conda/cj-028-http-auth',
    'pip/py-034-http-auth',
  ],
})

describe('any-server-error reads facts', () => {
  it('from pip/py-203-server-error', () => {
    const match = matchOf(anyServerError, 'pip/py-203-server-error')
    expect(match.facts?.status).toBe(500)
  })
  it('from yarn/cj-185-server-error', () => {
    const match = matchOf(anyServerError, 'yarn/cj-185-server-error')
    expect(match.facts?.status).toBe(502)
  })
})
