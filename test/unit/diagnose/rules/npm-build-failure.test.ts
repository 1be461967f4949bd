import { npmBuildFailure } from '../../../../src/diagnose/rules/npm-build-failure.js'
import { describeRule } from '../rule-cases.js'

describeRule(npmBuildFailure, {
  matches: [
    'npm/captured-build-failure-install-script',
    'pnpm/captured-build-failure-postinstall',
    'yarn-berry/captured-build-failure-postinstall',
    'npm/cj-153-build-failure',
    'npm/cj-157-build-failure',
  ],
  ignores: [
    'npm/cj-159-permission',
    'npm/cj-165-disk-full',
  ],
})
