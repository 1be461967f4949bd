import { npmIntegrity } from '../../../../src/diagnose/rules/npm-integrity.js'
import { describeRule } from '../rule-cases.js'

describeRule(npmIntegrity, {
  matches: [
    'bun/captured-hash-mismatch',
    'npm/captured-hash-mismatch',
    'pnpm/cj-173-hash-mismatch',
  ],
  ignores: [
    'pnpm/cj-175-other',
    'npm/cj-146-resolution-conflict',
  ],
})
