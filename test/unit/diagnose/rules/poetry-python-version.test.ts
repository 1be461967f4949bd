import { expect, it } from 'vitest'
import { poetryPythonVersion } from '../../../../src/diagnose/rules/poetry-python-version.js'
import { describeRule, matchOf } from '../rule-cases.js'

describeRule(poetryPythonVersion, {
  matches: [
    'poetry/nw-20-python-version',
  ],
  ignores: [
    'poetry/py-056-python-version',
    'pip/py-084-python-version',
  ],
})

it('names the dependency whose Python range is narrower', () => {
  expect(matchOf(poetryPythonVersion, 'poetry/nw-20-python-version')?.summary).toMatch(/^rapidocr-onnxruntime /)
})
