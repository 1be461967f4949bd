import { pipInvalidRequirement } from '../../../../src/diagnose/rules/pip-invalid-requirement.js'
import { describeRule } from '../rule-cases.js'

describeRule(pipInvalidRequirement, {
  matches: [
    'pip/py-182-other',
    'pip/py-183-other',
    'pip/py-187-other',
  ],
  ignores: [
    'pip/py-051-package-not-found',
    'pip/py-060-resolution-conflict',
  ],
})
