import { uvLockBusy } from '../../../../src/diagnose/rules/uv-lock-busy.js'
import { describeRule } from '../rule-cases.js'

describeRule(uvLockBusy, {
  matches: [
    'uv/py-105-lock-busy',
    'uv/py-106-lock-busy',
  ],
  ignores: [
    'pixi/cj-092-permission',
    'uv/py-099-lock-busy',
  ],
})
