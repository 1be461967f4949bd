import { uvFileInUse } from '../../../../src/diagnose/rules/uv-file-in-use.js'
import { describeRule } from '../rule-cases.js'

describeRule(uvFileInUse, {
  matches: [
    'uv/py-099-lock-busy',
  ],
  ignores: [
    'uv/py-197-permission',
    'uv/py-198-permission',
    'uv/py-200-permission',
  ],
})
