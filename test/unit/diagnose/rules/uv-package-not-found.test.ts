import { describe, expect, it } from 'vitest'
import { uvPackageNotFound } from '../../../../src/diagnose/rules/uv-package-not-found.js'
import { describeRule, matchOf } from '../rule-cases.js'

describeRule(uvPackageNotFound, {
  matches: [
    'uv/py-047-package-not-found',
    'uv/py-048-package-not-found',
    'uv/py-057-package-not-found',
    'uv/py-207-package-not-found',
    'uv/py-208-package-not-found',
  ],
  ignores: [
    'uv/py-058-resolution-conflict',
    'uv/py-206-resolution-conflict',
    'uv/py-086-python-version',
  ],
})

describe('uv-package-not-found reads facts', () => {
  it('from uv/py-208-package-not-found', () => {
    const match = matchOf(uvPackageNotFound, 'uv/py-208-package-not-found')
    expect(match.facts?.package).toBe('numpy')
  })
})
