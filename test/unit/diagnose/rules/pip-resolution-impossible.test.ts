import { pipResolutionImpossible } from '../../../../src/diagnose/rules/pip-resolution-impossible.js'
import { describeRule } from '../rule-cases.js'

describeRule(pipResolutionImpossible, {
  matches: [
    'pip/py-060-resolution-conflict',
    'pip/py-062-resolution-conflict',
  ],
  ignores: [
    'pip/py-081-python-version',
    'pip/py-084-python-version',
  ],
})
