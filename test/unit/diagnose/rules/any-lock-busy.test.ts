import { anyLockBusy } from '../../../../src/diagnose/rules/any-lock-busy.js'
import { describeRule } from '../rule-cases.js'

describeRule(anyLockBusy, {
  matches: [
    'cargo/captured-lock-busy',
    'conda/cj-065-lock-busy',
    'pixi/r3-nw-45-lock-busy',
  ],
  ignores: [
    'pixi/cj-092-permission',
    'uv/py-099-lock-busy',
  ],
})
