import { goToolchainVersion } from '../../../../src/diagnose/rules/go-toolchain-version.js'
import { describeRule } from '../rule-cases.js'

describeRule(goToolchainVersion, {
  matches: [
    'go/captured-python-version-go',
  ],
  ignores: [
    'go/captured-package-not-found',
    'cargo/captured-python-version-rustc',
  ],
})
