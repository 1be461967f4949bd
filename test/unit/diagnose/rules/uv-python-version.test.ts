import { uvPythonVersion } from '../../../../src/diagnose/rules/uv-python-version.js'
import { describeRule } from '../rule-cases.js'

describeRule(uvPythonVersion, {
  matches: [
    'uv/py-086-python-version',
    'uv/py-087-python-version',
    'uv/r3-nw-24-python-version',
  ],
  ignores: [
    'uv/r3-nw-25-other',
    'uv/py-058-resolution-conflict',
    'uv/py-048-package-not-found',
  ],
})
