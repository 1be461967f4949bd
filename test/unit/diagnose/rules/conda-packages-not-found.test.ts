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
    'conda/r3-nw-05-package-not-found',
  ],
  ignores: [
    'conda/r2-ip-23-resolution-conflict',
    'conda/r2-nw-10-resolution-conflict',
    'mamba/cj-052-resolution-conflict',
    'conda/cj-071-resolution-conflict',
  ],
})

describe('conda-packages-not-found reads facts', () => {
  it('from conda/cj-040-package-not-found', () => {
    const match = matchOf(condaPackagesNotFound, 'conda/cj-040-package-not-found')
    expect(match.facts?.package).toBe('pychatgpt')
  })
  it("names a listed package, not a channel of conda 23.9's header, from conda/r4-nw-26-package-not-found", () => {
    expect(matchOf(condaPackagesNotFound, 'conda/r4-nw-26-package-not-found').facts?.package).toBe('notebook-shim')
  })
  it('names the missing dependency from conda/r3-nw-05-package-not-found', () => {
    expect(matchOf(condaPackagesNotFound, 'conda/r3-nw-05-package-not-found').facts?.package).toBe('boost')
  })
})
