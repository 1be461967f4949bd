import { describe, expect, it } from 'vitest'
import { diagnose } from '../../../../src/diagnose/index.js'
import { pipNoMatchingDistribution } from '../../../../src/diagnose/rules/pip-no-matching-distribution.js'
import { describeRule, fixture, matchOf } from '../rule-cases.js'

// Only a listing proves a version missing: "(from versions: none)" follows a 404, a 401, a 429 or a 503 alike.
describeRule(pipNoMatchingDistribution, {
  matches: [
    'pip/captured-package-not-found-version',
  ],
  ignores: [
    'pip/py-021-package-not-found',
    'pip/py-051-package-not-found',
    'pip/captured-other-nothing-listed-404',
    'pip/captured-other-nothing-listed-503',
    'pip/captured-other-nothing-listed-extra-503',
    'pip/py-052-package-not-found',
    'pip/py-060-resolution-conflict',
  ],
})

describe('pip-no-matching-distribution reads facts', () => {
  it('from pip/captured-package-not-found-version: the listing is the proof', () => {
    const match = matchOf(pipNoMatchingDistribution, 'pip/captured-package-not-found-version')
    expect(match.facts).toMatchObject({ package: 'demo', version: '2.0', versionsAvailable: ['1.0'], absence: 'listing' })
    expect(match.summary).toBe('The index lists demo, but no version matching demo==2.0 (it lists 1.0)')
  })
})

it('yields to the network cause that pip hides behind "No matching distribution"', () => {
  expect(diagnose(fixture('pip/py-124-timeout')).category).toBe('timeout')
  expect(diagnose(fixture('pip/py-013-ssl')).category).toBe('ssl')
})
