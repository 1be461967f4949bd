import { pipBuildFailure } from '../../../../src/diagnose/rules/pip-build-failure.js'
import { describeRule } from '../rule-cases.js'

describeRule(pipBuildFailure, {
  matches: [
    'pip/py-068-build-failure',
    'pip/py-069-build-failure',
    'pip/py-076-build-failure',
    'pip/py-219-build-failure',
  ],
  ignores: [
    'pip/py-084-python-version',
    'pip/py-123-module-not-found',
  ],
})
