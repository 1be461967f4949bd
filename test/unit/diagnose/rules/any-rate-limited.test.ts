import { describe, expect, it } from 'vitest'
import { anyRateLimited } from '../../../../src/diagnose/rules/any-rate-limited.js'
import { describeRule, matchOf } from '../rule-cases.js'

describeRule(anyRateLimited, {
  matches: [
    'cargo/captured-rate-limited',
    'conda/cj-037-rate-limited',
    'conda/cj-039-rate-limited',
    'npm/cj-129-rate-limited',
  ],
  ignores: [
    'conda/cj-028-http-auth',
    'npm/cj-133-server-error',
  ],
})

describe('any-rate-limited reads facts', () => {
  it('from conda/cj-039-rate-limited', () => {
    const match = matchOf(anyRateLimited, 'conda/cj-039-rate-limited')
    expect(match.facts).toMatchObject({ status: 429, host: 'conda.anaconda.org' })
  })
})
