import { cargoNoMatchingPackage } from '../../../../src/diagnose/rules/cargo-no-matching-package.js'
import { describeRule } from '../rule-cases.js'

describeRule(cargoNoMatchingPackage, {
  matches: [
    'cargo/captured-package-not-found-version',
    'cargo/captured-package-not-found',
  ],
  ignores: [
    'cargo/captured-hash-mismatch',
    'cargo/captured-build-failure',
  ],
})
