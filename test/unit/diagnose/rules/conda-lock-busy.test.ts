import { condaLockBusy } from '../../../../src/diagnose/rules/conda-lock-busy.js'
import { describeRule } from '../rule-cases.js'

describeRule(condaLockBusy, {
  matches: [
    'conda/cj-062-lock-busy',
    'conda/cj-065-lock-busy',
  ],
  ignores: [
    'conda/cj-054-permission',
    'conda/cj-056-permission',
  ],
})
