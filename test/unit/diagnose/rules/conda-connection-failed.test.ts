import { describe, expect, it } from 'vitest'
import { condaConnectionFailed } from '../../../../src/diagnose/rules/conda-connection-failed.js'
import { diagnose } from '../../../../src/diagnose/index.js'
import { describeRule, fixture, matchOf } from '../rule-cases.js'

describeRule(condaConnectionFailed, {
  matches: [
    'conda/cj-001-connection',
    'conda/cj-003-connection',
    'conda/cj-004-connection',
  ],
  ignores: [
    'conda/cj-028-http-auth',
    'conda/cj-036-server-error',
    'mamba/r4-ip-09-other',
  ],
})

describe('conda-connection-failed reads facts', () => {
  it('from conda/cj-004-connection', () => {
    const match = matchOf(condaConnectionFailed, 'conda/cj-004-connection')
    expect(match.facts?.host).toBe('mirrors.tuna.tsinghua.edu.cn')
  })
})

it("reads curl's write error (code 23) as the tool's own, not the network's: stopped, no mirror", () => {
  const diagnosis = diagnose(fixture('mamba/r4-ip-09-other'))
  expect([diagnosis.category, diagnosis.retryable]).toEqual(['other', false])
})
