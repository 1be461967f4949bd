import { yarnChecksumMismatch } from '../../../../src/diagnose/rules/yarn-checksum-mismatch.js'
import { describeRule } from '../rule-cases.js'

describeRule(yarnChecksumMismatch, {
  matches: [
    'yarn/captured-hash-mismatch',
    'yarn/cj-184-hash-mismatch',
  ],
  ignores: [
    'yarn/cj-162-disk-full',
    'yarn/cj-185-server-error',
  ],
})
