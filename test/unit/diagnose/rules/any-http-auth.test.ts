import { describe, expect, it } from 'vitest'
import { anyHttpAuth } from '../../../../src/diagnose/rules/any-http-auth.js'
import { describeRule, matchOf } from '../rule-cases.js'

describeRule(anyHttpAuth, {
  matches: [
    'cargo/captured-http-auth-403',
    'cargo/captured-http-auth',
    'conda/cj-028-http-auth',
    'go/captured-http-auth',
    'npm/cj-124-http-auth',
    'pip/py-034-http-auth',
    'pip/py-036-http-auth',
    'pip/py-037-http-auth',
    'pip/py-038-http-auth',
    'pip/py-039-http-auth',
    'pip/py-142-http-auth',
    'pip/py-166-http-auth',
    'pixi/cj-082-http-auth',
    'pixi/cj-084-http-auth',
    'pixi/cj-086-http-auth',
    'poetry/py-146-http-auth',
    'uv/py-033-http-auth',
  ],
  ignores: [
    'pip/py-041-server-error',
    'conda/cj-030-package-not-found',
    'npm/cj-129-rate-limited',
  ],
})

describe('any-http-auth reads facts', () => {
  it('from pip/py-039-http-auth', () => {
    const match = matchOf(anyHttpAuth, 'pip/py-039-http-auth')
    expect(match.facts).toMatchObject({ status: 403, host: 'mirrors.ustc.edu.cn' })
  })
  it('from pip/py-142-http-auth', () => {
    const match = matchOf(anyHttpAuth, 'pip/py-142-http-auth')
    expect(match.facts?.status).toBe(401)
  })
})
