import { uvHashMismatch } from '../../../../src/diagnose/rules/uv-hash-mismatch.js'
import { describeRule } from '../rule-cases.js'

describeRule(uvHashMismatch, {
  matches: [
    'uv/py-115-hash-mismatch',
    'uv/py-116-hash-mismatch',
  ],
  ignores: [
    'pip/py-108-hash-mismatch',
    'uv/py-138-timeout',
  ],
})
