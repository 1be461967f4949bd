import { anyLockUnsupported } from '../../../../src/diagnose/rules/any-lock-unsupported.js'
import { describeRule } from '../rule-cases.js'

describeRule(anyLockUnsupported, {
  matches: [
    'uv/r2-nw-21-other',
  ],
  ignores: [
    'cargo/captured-lock-busy',
    'conda/cj-065-lock-busy',
    'uv/py-099-lock-busy',
    'uv/py-105-lock-busy',
  ],
})
