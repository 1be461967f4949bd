import { anyExternallyManaged } from '../../../../src/diagnose/rules/any-externally-managed.js'
import { describeRule } from '../rule-cases.js'

describeRule(anyExternallyManaged, {
  matches: [
    'conda/cj-195-externally-managed',
    'pip/py-092-externally-managed',
    'pip/py-093-externally-managed',
    'uv/py-194-externally-managed',
    'uv/py-196-externally-managed',
  ],
  ignores: [
    'pixi/cj-196-other',
    'pip/py-094-permission',
  ],
})
