import { poetryBuildFailure } from '../../../../src/diagnose/rules/poetry-build-failure.js'
import { describeRule } from '../rule-cases.js'

describeRule(poetryBuildFailure, {
  matches: [
    'poetry/py-210-build-failure',
  ],
  ignores: [
    'poetry/py-176-timeout',
    'poetry/py-181-other',
  ],
})
