import { pnpmMissingIntegrity } from '../../../../src/diagnose/rules/pnpm-missing-integrity.js'
import { describeRule } from '../rule-cases.js'

describeRule(pnpmMissingIntegrity, {
  matches: [
    'pnpm/cj-175-other',
  ],
  ignores: [
    'pnpm/cj-173-hash-mismatch',
    'pnpm/cj-171-package-not-found',
  ],
})
