import { condaPythonVersion } from '../../../../src/diagnose/rules/conda-python-version.js'
import { describeRule } from '../rule-cases.js'

describeRule(condaPythonVersion, {
  matches: [
    'conda/cj-068-python-version',
    'conda/cj-204-python-version',
  ],
  ignores: [
    'conda/cj-071-resolution-conflict',
    'mamba/cj-052-resolution-conflict',
  ],
})
