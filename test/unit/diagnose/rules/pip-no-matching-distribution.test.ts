import { describe, expect, it } from 'vitest'
import { diagnose } from '../../../../src/diagnose/index.js'
import { pipNoMatchingDistribution } from '../../../../src/diagnose/rules/pip-no-matching-distribution.js'
import { describeRule, fixture, matchOf } from '../rule-cases.js'

describeRule(pipNoMatchingDistribution, {
  matches: [
    'pip/py-021-package-not-found',
    'pip/py-051-package-not-found',
  ],
  ignores: [
    'pip/py-052-package-not-found',
    'pip/py-060-resolution-conflict',
  ],
})

describe('pip-no-matching-distribution reads facts', () => {
  it('from pip/py-051-package-not-found', () => {
    const match = matchOf(pipNoMatchingDistribution, 'pip/py-051-package-not-found')
    expect(match.facts).toMatchObject({ package: 'requirements.pip', versionsAvailable: [] })
  })
})

it('yields to the network cause that pip hides behind "No matching distribution"', () => {
  expect(diagnose(fixture('pip/py-124-timeout')).category).toBe('timeout')
  expect(diagnose(fixture('pip/py-013-ssl')).category).toBe('ssl')
})
