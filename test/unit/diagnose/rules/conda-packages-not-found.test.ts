import { describe, expect, it } from 'vitest'
import { condaPackagesNotFound } from '../../../../src/diagnose/rules/conda-packages-not-found.js'
import { describeRule, matchOf } from '../rule-cases.js'

describeRule(condaPackagesNotFound, {
  matches: [
    'conda/cj-040-package-not-found',
    'conda/cj-043-package-not-found',
    'conda/cj-049-package-not-found',
    'micromamba/cj-051-package-not-found',
    'pixi/cj-072-package-not-found',
  ],
  ignores: [
    'mamba/cj-052-resolution-conflict',
    'conda/cj-071-resolution-conflict',
  ],
})

describe('conda-packages-not-found reads facts', () => {
  it('from conda/cj-040-package-not-found', () => {
    const match = matchOf(condaPackagesNotFound, 'conda/cj-040-package-not-found')
    expect(match.facts?.package).toBe('pychatgpt')
  })
})
