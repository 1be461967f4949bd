import { expect, it } from 'vitest'
import { diagnose } from '../../../../src/diagnose/index.js'
import { condaSslModuleMissing } from '../../../../src/diagnose/rules/conda-ssl-module-missing.js'
import { describeRule, fixture } from '../rule-cases.js'

describeRule(condaSslModuleMissing, {
  matches: [
    'conda/cj-009-other',
  ],
  ignores: [
    'conda/cj-007-ssl',
    'conda/cj-008-ssl',
  ],
})

it('leaves pip\'s missing ssl module to any-ssl (the rule is for conda only)', () => {
  expect(diagnose(fixture('pip/py-157-ssl')).ruleId).toBe('any-ssl')
  expect(diagnose(fixture('conda/cj-009-other')).ruleId).toBe('conda-ssl-module-missing')
})
