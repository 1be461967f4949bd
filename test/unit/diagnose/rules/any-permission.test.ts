import { describe, expect, it } from 'vitest'
import { diagnose } from '../../../../src/diagnose/index.js'
import { anyPermission } from '../../../../src/diagnose/rules/any-permission.js'
import { describeRule, fixture, matchOf } from '../rule-cases.js'

describeRule(anyPermission, {
  matches: [
    'conda/cj-054-permission',
    'conda/cj-056-permission',
    'npm/cj-159-permission',
    'npm/cj-160-permission',
    'pip/py-094-permission',
    'pixi/cj-092-permission',
    'uv/py-197-permission',
    'uv/py-198-permission',
    'uv/py-200-permission',
    'uv/r4-ip-17-permission',
  ],
  ignores: [
    'micromamba/cj-203-other',
    'pip/py-032-proxy',
    'pixi/cj-080-other',
    'pip/py-027-ssl',
  ],
})

describe('any-permission reads facts', () => {
  it('from npm/cj-160-permission', () => {
    const match = matchOf(anyPermission, 'npm/cj-160-permission')
    expect(match.summary).toContain('/usr/local/lib/node_modules/nodemon')
  })
})

it('yields to the lock when another uv process holds the file (Windows)', () => {
  expect(diagnose(fixture('uv/py-099-lock-busy')).category).toBe('lock_busy')
})
