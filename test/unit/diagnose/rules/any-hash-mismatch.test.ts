import { anyHashMismatch } from '../../../../src/diagnose/rules/any-hash-mismatch.js'
import { describeRule } from '../rule-cases.js'

describeRule(anyHashMismatch, {
  matches: [
    'cargo/captured-hash-mismatch',
    'go/captured-hash-mismatch',
    'poetry/captured-hash-mismatch-truncated-wheel',
    'uv/py-115-hash-mismatch',
    'uv/py-116-hash-mismatch',
    'uv/r3-nw-02-hash-mismatch',
  ],
  ignores: [
    'pip/py-160-connection',
    'conda/cj-001-connection',
    'micromamba/cj-024-ssl',
  ],
})
