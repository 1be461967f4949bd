import { describe, expect, it } from 'vitest'
import { diagnose } from '../../../../src/diagnose/index.js'
import { poetryPackageNotFound } from '../../../../src/diagnose/rules/poetry-package-not-found.js'
import { describeRule, fixture, matchOf } from '../rule-cases.js'

describeRule(poetryPackageNotFound, {
  matches: [
    'poetry/captured-package-not-found',
    'poetry/captured-package-not-found-version',
    'poetry/captured-package-not-found-solver',
  ],
  ignores: [
    'poetry/py-209-resolution-conflict',
    'poetry/captured-server-error',
  ],
})

describe('poetry-package-not-found reads facts', () => {
  it('from poetry/captured-package-not-found-solver', () => expect(matchOf(poetryPackageNotFound, 'poetry/captured-package-not-found-solver').facts?.package).toBe('hello'))
})

it('yields to the 401 that poetry reports with the same words', () => {
  expect(diagnose(fixture('poetry/captured-http-auth')).category).toBe('http_auth')
})
