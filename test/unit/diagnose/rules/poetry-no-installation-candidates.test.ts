import { poetryNoInstallationCandidates } from '../../../../src/diagnose/rules/poetry-no-installation-candidates.js'
import { describeRule } from '../rule-cases.js'

describeRule(poetryNoInstallationCandidates, {
  matches: [
    'poetry/py-056-python-version',
  ],
  ignores: [
    'poetry/py-209-resolution-conflict',
    'poetry/py-180-server-error',
  ],
})
