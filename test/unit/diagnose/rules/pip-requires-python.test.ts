import { pipRequiresPython } from '../../../../src/diagnose/rules/pip-requires-python.js'
import { describeRule } from '../rule-cases.js'

describeRule(pipRequiresPython, {
  matches: [
    'pip/py-081-python-version',
    'pip/py-084-python-version',
  ],
  ignores: [
    'pip/py-051-package-not-found',
    'pip/py-021-package-not-found',
  ],
})
