import { expect, it } from 'vitest'
import { pdmNoMatchingCandidates } from '../../../../src/diagnose/rules/pdm-no-matching-candidates.js'
import { describeRule, matchOf } from '../rule-cases.js'

describeRule(pdmNoMatchingCandidates, {
  matches: [
    'pdm/py-066-package-not-found',
  ],
  ignores: [
    'pdm/captured-other-candidates-404',
    'pdm/captured-other-candidates-429',
    'pdm/py-216-timeout',
    'pdm/py-218-timeout',
  ],
})

it('reads the listing of candidates as the proof', () => {
  expect(matchOf(pdmNoMatchingCandidates, 'pdm/py-066-package-not-found').facts).toMatchObject({ absence: 'listing' })
})
