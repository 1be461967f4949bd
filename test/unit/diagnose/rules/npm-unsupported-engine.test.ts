import { npmUnsupportedEngine } from '../../../../src/diagnose/rules/npm-unsupported-engine.js'
import { describeRule } from '../rule-cases.js'

describeRule(npmUnsupportedEngine, {
  matches: [
    'npm/captured-python-version',
  ],
  ignores: [
    'npm/cj-146-resolution-conflict',
    'npm/cj-139-package-not-found',
  ],
})
