import { anyHttpNotFound } from '../../../../src/diagnose/rules/any-http-not-found.js'
import { describeRule } from '../rule-cases.js'

describeRule(anyHttpNotFound, {
  matches: [
    'bun/captured-package-not-found',
    'conda/cj-030-package-not-found',
    'conda/cj-031-package-not-found',
    'conda/cj-199-package-not-found',
    'go/captured-package-not-found-410',
    'go/captured-package-not-found-revision',
    'go/captured-package-not-found',
    'pip/py-052-package-not-found',
    'pnpm/cj-171-package-not-found',
  ],
  ignores: [
    'pip/py-034-http-auth',
    'conda/cj-036-server-error',
  ],
})
