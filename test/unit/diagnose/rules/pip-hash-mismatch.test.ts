import { describe, expect, it } from 'vitest'
import { pipHashMismatch } from '../../../../src/diagnose/rules/pip-hash-mismatch.js'
import { describeRule, matchOf } from '../rule-cases.js'

describeRule(pipHashMismatch, {
  matches: [
    'pip/py-108-hash-mismatch',
    'pip/py-110-hash-mismatch',
    'pip/py-111-hash-mismatch',
    'pip/py-112-hash-mismatch',
    'pip/py-113-hash-mismatch',
    'pip/py-114-hash-mismatch',
  ],
  ignores: [
    'pip/py-160-connection',
    'uv/py-115-hash-mismatch',
    'conda/cj-044-hash-mismatch',
  ],
})

describe('pip-hash-mismatch reads facts', () => {
  it('from pip/py-108-hash-mismatch', () => {
    const match = matchOf(pipHashMismatch, 'pip/py-108-hash-mismatch')
    expect(match.facts).toMatchObject({ package: 'torch', host: 'files.pythonhosted.org' })
  })
})
