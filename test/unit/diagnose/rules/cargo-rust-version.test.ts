import { cargoRustVersion } from '../../../../src/diagnose/rules/cargo-rust-version.js'
import { describeRule } from '../rule-cases.js'

describeRule(cargoRustVersion, {
  matches: [
    'cargo/captured-python-version-rustc',
  ],
  ignores: [
    'cargo/captured-build-failure',
    'cargo/captured-package-not-found-version',
  ],
})
