import { describe, expect, it } from 'vitest'
import { diagnose } from '../../../../src/diagnose/index.js'
import { pythonModuleNotFound } from '../../../../src/diagnose/rules/python-module-not-found.js'
import { describeRule, fixture, matchOf } from '../rule-cases.js'

describeRule(pythonModuleNotFound, {
  matches: [
    'pip/py-123-module-not-found',
    'pipx/py-171-module-not-found',
    'pipx/py-172-module-not-found',
    'pipx/py-173-module-not-found',
    'python/py-119-module-not-found',
    'python/py-122-module-not-found',
    'python/py-221-module-not-found',
    'python/py-223-module-not-found',
  ],
  ignores: [
    'npm/cj-188-module-not-found',
    'pip/py-094-permission',
  ],
})

describe('python-module-not-found reads facts', () => {
  it('from python/py-221-module-not-found', () => {
    const match = matchOf(pythonModuleNotFound, 'python/py-221-module-not-found')
    expect(match.facts?.package).toBe('cv2')
  })
})

it('yields to the build failure when the import fails inside setup.py', () => {
  expect(diagnose(fixture('pip/py-219-build-failure')).category).toBe('build_failure')
  expect(diagnose(fixture('uv/py-074-build-failure')).category).toBe('build_failure')
})
