import { npmBuildFailure } from '../../../../src/diagnose/rules/npm-build-failure.js'
import { describeRule } from '../rule-cases.js'

describeRule(npmBuildFailure, {
  matches: [
    'npm/cj-153-build-failure',
    'npm/cj-157-build-failure',
  ],
  ignores: [
    'npm/cj-159-permission',
    'npm/cj-165-disk-full',
  ],
})
