import { pdmNoMatchingCandidates } from '../../../../src/diagnose/rules/pdm-no-matching-candidates.js'
import { describeRule } from '../rule-cases.js'

describeRule(pdmNoMatchingCandidates, {
  matches: [
    'pdm/py-066-package-not-found',
  ],
  ignores: [
    'pdm/py-216-timeout',
    'pdm/py-218-timeout',
  ],
})
