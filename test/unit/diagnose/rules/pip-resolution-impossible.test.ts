import { describe, expect, it } from 'vitest'
import { pipResolutionImpossible } from '../../../../src/diagnose/rules/pip-resolution-impossible.js'
import { describeRule, matchOf } from '../rule-cases.js'

describeRule(pipResolutionImpossible, {
  matches: [
    'pip/py-060-resolution-conflict',
    'pip/py-062-resolution-conflict',
    'pip/captured-resolution-conflict-constraint-page-failed',
  ],
  ignores: [
    'pip/py-081-python-version',
    'pip/py-084-python-version',
  ],
})

describe('pip-resolution-impossible: the one package the index can confirm', () => {
  it('names it when only the person\'s own requests for it conflict, pinning one version (an index page that failed)', () =>
    expect(matchOf(pipResolutionImpossible, 'pip/captured-resolution-conflict-constraint-page-failed').facts).toEqual({ package: 'demo-pkg', version: '1.0' }))
  it('names none when dependencies take part', () => expect(matchOf(pipResolutionImpossible, 'pip/py-060-resolution-conflict').facts).toEqual({}))
  it('names none for two different pins of one package', () => expect(matchOf(pipResolutionImpossible, 'pip/py-062-resolution-conflict').facts).toEqual({}))
})
