import { anyUsageError } from '../../../../src/diagnose/rules/any-usage-error.js'
import { describeRule } from '../rule-cases.js'

describeRule(anyUsageError, {
  matches: [
    'pnpm/captured-other-usage-unknown-option',
    'yarn-berry/captured-other-usage-unknown-option',
    'npm/captured-other-unknown-command',
    'cargo/captured-other-usage-invalid-value',
    'uv/py-190-other',
  ],
  ignores: [
    'uv/py-047-package-not-found',
    'pip/py-182-other',
  ],
})
