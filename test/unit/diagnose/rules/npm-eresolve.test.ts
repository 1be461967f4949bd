import { npmEresolve } from '../../../../src/diagnose/rules/npm-eresolve.js'
import { describeRule } from '../rule-cases.js'

describeRule(npmEresolve, {
  matches: [
    'npm/cj-146-resolution-conflict',
  ],
  ignores: [
    'npm/cj-139-package-not-found',
    'npm/cj-153-build-failure',
  ],
})
