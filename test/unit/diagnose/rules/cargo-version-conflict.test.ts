import { cargoVersionConflict } from '../../../../src/diagnose/rules/cargo-version-conflict.js'
import { describeRule } from '../rule-cases.js'

describeRule(cargoVersionConflict, {
  matches: [
    'cargo/captured-resolution-conflict',
  ],
  ignores: [
    'cargo/captured-package-not-found-version',
    'cargo/captured-build-failure',
  ],
})
