import { pnpmUnsupportedEngine } from '../../../../src/diagnose/rules/pnpm-unsupported-engine.js'
import { describeRule } from '../rule-cases.js'

describeRule(pnpmUnsupportedEngine, {
  matches: [
    'pnpm/captured-python-version-pnpm-version',
    'pnpm/cj-176-python-version',
    'pnpm/cj-177-python-version',
    'pnpm/cj-178-python-version',
  ],
  ignores: [
    'pnpm/cj-175-other',
    'pnpm/cj-166-timeout',
  ],
})
