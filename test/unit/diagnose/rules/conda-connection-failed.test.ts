import { describe, expect, it } from 'vitest'
import { condaConnectionFailed } from '../../../../src/diagnose/rules/conda-connection-failed.js'
import { describeRule, matchOf } from '../rule-cases.js'

describeRule(condaConnectionFailed, {
  matches: [
    'conda/cj-001-connection',
    'conda/cj-003-connection',
    'conda/cj-004-connection',
  ],
  ignores: [
    'conda/cj-028-http-auth',
    'conda/cj-036-server-error',
  ],
})

describe('conda-connection-failed reads facts', () => {
  it('from conda/cj-004-connection', () => {
    const match = matchOf(condaConnectionFailed, 'conda/cj-004-connection')
    expect(match.facts?.host).toBe('mirrors.tuna.tsinghua.edu.cn')
  })
})
