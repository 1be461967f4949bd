import { describe, expect, it } from 'vitest'
import { npmNoMatchingVersion } from '../../../../src/diagnose/rules/npm-no-matching-version.js'
import { describeRule, matchOf } from '../rule-cases.js'

describeRule(npmNoMatchingVersion, {
  matches: [
    'bun/captured-package-not-found-version',
    'npm/cj-139-package-not-found',
    'npm/cj-141-package-not-found',
  ],
  ignores: [
    'npm/cj-146-resolution-conflict',
    'npm/cj-188-module-not-found',
  ],
})

describe('npm-no-matching-version reads facts', () => {
  it('from npm/cj-141-package-not-found', () => {
    const match = matchOf(npmNoMatchingVersion, 'npm/cj-141-package-not-found')
    expect(match.facts).toMatchObject({ package: '@openchamber/sdk', version: '1.23.1' })
  })
})
