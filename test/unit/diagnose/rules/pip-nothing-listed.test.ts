import { describe, expect, it } from 'vitest'
import { diagnose } from '../../../../src/diagnose/index.js'
import { pipNothingListed } from '../../../../src/diagnose/rules/pip-nothing-listed.js'
import { describeRule, fixture, matchOf } from '../rule-cases.js'

// pip's and pdm's "found nothing": the same words whatever the index answered (captured side by side), so `other`.
describeRule(pipNothingListed, {
  matches: [
    'pip/captured-other-nothing-listed-404',
    'pip/captured-other-nothing-listed-503',
    'pip/captured-other-nothing-listed-429',
    'pip/captured-other-nothing-listed-401',
    'pip/captured-other-nothing-listed-extra-503',
    'pip/py-021-package-not-found',
    'pip/py-051-package-not-found',
    'pdm/captured-other-candidates-404',
    'pdm/captured-other-candidates-429',
  ],
  ignores: [
    'pip/captured-package-not-found-version',
    'pdm/py-066-package-not-found',
    'pip/py-060-resolution-conflict',
  ],
})

describe('pip-nothing-listed', () => {
  it('keeps the package, for the retry loop to ask the index about', () => {
    expect(matchOf(pipNothingListed, 'pip/captured-other-nothing-listed-503').facts).toMatchObject({ package: 'demo' })
    expect(matchOf(pipNothingListed, 'pdm/captured-other-candidates-429').facts).toMatchObject({ package: 'privpkg' })
    expect(matchOf(pipNothingListed, 'pip/py-051-package-not-found').facts).toMatchObject({ package: 'requirements.pip' })
  })

  it('names the indexes pip read after its own: the retry loop asks them too', () => {
    expect(matchOf(pipNothingListed, 'pip/captured-other-nothing-listed-extra-503').facts).toMatchObject({ package: 'privpkg', otherIndexes: ['http://127.0.0.1:18503/simple/'] })
    expect(matchOf(pipNothingListed, 'pip/captured-other-nothing-listed-503').facts?.otherIndexes).toBeUndefined()
  })

  it('is what a 404, a 401, a 429 and a 503 of the page all come out as: no guess that stops the retries', () => {
    for (const status of ['404', '401', '429', '503']) {
      const diagnosis = diagnose(fixture(`pip/captured-other-nothing-listed-${status}`))
      expect(diagnosis).toMatchObject({ category: 'other', ruleId: 'pip-nothing-listed', remedy: { kind: 'switch-mirror', once: true }, retryable: true })
      expect(diagnosis.nextStep).not.toMatch(/Check the name/)
    }
  })

  it('sends no retry to a mirror when pip read other indexes too: the mirror would be asked for their names', () => {
    const diagnosis = diagnose(fixture('pip/captured-other-nothing-listed-extra-503'))
    expect(diagnosis).toMatchObject({ category: 'other', ruleId: 'pip-nothing-listed', remedy: { kind: 'give-up' }, retryable: false })
    expect(diagnosis.nextStep).toMatch(/^pip also read http:\/\/127\.0\.0\.1:18503\/simple\/: no mirror of the main index is asked/)
    expect(diagnosis.nextStep).not.toMatch(/Check the name/)
  })
})
