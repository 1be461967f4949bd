import { condaUnsatisfiable } from '../../../../src/diagnose/rules/conda-unsatisfiable.js'
import { describeRule } from '../rule-cases.js'

describeRule(condaUnsatisfiable, {
  matches: [
    'conda/cj-071-resolution-conflict',
    'mamba/cj-052-resolution-conflict',
  ],
  ignores: [
    'conda/cj-040-package-not-found',
    'conda/cj-054-permission',
  ],
})
