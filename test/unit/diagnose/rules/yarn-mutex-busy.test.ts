import { yarnMutexBusy } from '../../../../src/diagnose/rules/yarn-mutex-busy.js'
import { describeRule } from '../rule-cases.js'

describeRule(yarnMutexBusy, {
  matches: [
    'yarn/cj-205-lock-busy',
    'yarn/cj-206-lock-busy',
  ],
  ignores: [
    'yarn/cj-181-timeout',
    'yarn/cj-163-disk-full',
  ],
})
