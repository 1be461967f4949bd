import { expect, it } from 'vitest'
import { diagnose } from '../../../../src/diagnose/index.js'
import { anyOfflineMode } from '../../../../src/diagnose/rules/any-offline-mode.js'
import { describeRule, fixture } from '../rule-cases.js'

describeRule(anyOfflineMode, {
  matches: [
    'npm/captured-other-offline',
    'pnpm/captured-other-offline-meta',
    'pnpm/captured-other-offline-tarball',
    'cargo/captured-other-offline',
    'go/captured-other-offline',
  ],
  ignores: [
    'cargo/captured-package-not-found',
    'npm/cj-120-proxy',
    'conda/cj-001-connection',
    'uv/py-015-dns',
  ],
})

it('stops on an offline npm instead of trying a mirror, which would run offline too', () => {
  const diagnosis = diagnose(fixture('npm/captured-other-offline'))
  expect([diagnosis.category, diagnosis.ruleId, diagnosis.retryable]).toEqual(['other', 'any-offline-mode', false])
})
