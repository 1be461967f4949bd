import { cargoBuildFailure } from '../../../../src/diagnose/rules/cargo-build-failure.js'
import { describeRule } from '../rule-cases.js'

describeRule(cargoBuildFailure, {
  matches: [
    'cargo/captured-build-failure',
  ],
  ignores: [
    'cargo/captured-python-version-rustc',
    'cargo/captured-dns',
  ],
})
