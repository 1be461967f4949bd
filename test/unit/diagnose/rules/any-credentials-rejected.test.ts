import { describe, expect, it } from 'vitest'
import { anyCredentialsRejected } from '../../../../src/diagnose/rules/any-credentials-rejected.js'
import { diagnose } from '../../../../src/diagnose/index.js'
import { normalizeFailure } from '../../../../src/diagnose/normalize.js'
import { describeRule, fixture, matchOf } from '../rule-cases.js'

describeRule(anyCredentialsRejected, {
  matches: [
    'conda/ip-11-http-auth',
    'npm/captured-http-auth-token-rejected',
    'pnpm/captured-http-auth-token-rejected',
    'npm/captured-http-auth-basic-realm',
    'npm/r4-ip-55-http-auth',
  ],
  ignores: [
    'cargo/captured-http-auth',
    'pip/py-039-http-auth',
    'uv/py-033-http-auth',
    'conda/cj-030-package-not-found',
  ],
})

describe('any-credentials-rejected', () => {
  it('names the host that refused the token', () => {
    expect(matchOf(anyCredentialsRejected, 'pnpm/captured-http-auth-token-rejected').facts?.host).toBe('127.0.0.1')
  })
  it('leaves a pnpm 404 to the absence rules: pnpm names the authorization header after a 404 too', () => {
    const output = ' ERR_PNPM_FETCH_404  GET https://npm.corp.example/@acme%2Fui-kit: Not Found - 404\n\nAn authorization header was used: Bearer npm_[hidden]\n'
    expect(anyCredentialsRejected.match(normalizeFailure({ tool: 'pnpm', output }))).toBeNull()
    expect(diagnose({ tool: 'pnpm', output }).category).toBe('package_not_found')
  })
})

it('stops on a login challenge even when the command named the public registry (the lockfile pointed elsewhere)', () => {
  const diagnosis = diagnose({ ...fixture('npm/r4-ip-55-http-auth'), command: ['npm', 'install', '--registry', 'https://registry.npmjs.org'] })
  expect([diagnosis.ruleId, diagnosis.remedy.kind]).toEqual(['any-credentials-rejected', 'give-up'])
})
