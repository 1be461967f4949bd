import { yarnIncompatibleEngine } from '../../../../src/diagnose/rules/yarn-incompatible-engine.js'
import { describeRule } from '../rule-cases.js'

describeRule(yarnIncompatibleEngine, {
  matches: [
    'yarn/cj-150-python-version',
    'yarn/cj-151-python-version',
  ],
  ignores: [
    'yarn/cj-162-disk-full',
    'yarn/cj-185-server-error',
  ],
})
