import { expect, it } from 'vitest'
import { diagnose } from '../../../../src/diagnose/index.js'
import { uvNoSolution } from '../../../../src/diagnose/rules/uv-no-solution.js'
import { describeRule, fixture } from '../rule-cases.js'

describeRule(uvNoSolution, {
  matches: [
    'uv/py-058-resolution-conflict',
    'uv/py-206-resolution-conflict',
  ],
  ignores: [
    'uv/py-072-build-failure',
    'uv/py-115-hash-mismatch',
  ],
})

it('yields to the innermost cause of the chain (a TLS failure under "No solution found")', () => {
  expect(diagnose(fixture('uv/py-133-ssl')).category).toBe('ssl')
})
