import { goNoMatchingVersions } from '../../../../src/diagnose/rules/go-no-matching-versions.js'
import { describeRule } from '../rule-cases.js'

describeRule(goNoMatchingVersions, {
  matches: [
    'go/captured-package-not-found-query',
  ],
  ignores: [
    'go/captured-package-not-found',
    'go/captured-hash-mismatch',
  ],
})
