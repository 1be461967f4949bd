import { yarnNoMatchingVersion } from '../../../../src/diagnose/rules/yarn-no-matching-version.js'
import { describeRule } from '../rule-cases.js'

describeRule(yarnNoMatchingVersion, {
  matches: [
    'yarn-berry/captured-package-not-found-no-candidates',
    'yarn/captured-package-not-found-version',
  ],
  ignores: [
    'yarn/cj-150-python-version',
    'yarn/cj-185-server-error',
  ],
})
