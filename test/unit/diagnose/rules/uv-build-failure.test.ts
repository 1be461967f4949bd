import { uvBuildFailure } from '../../../../src/diagnose/rules/uv-build-failure.js'
import { describeRule } from '../rule-cases.js'

describeRule(uvBuildFailure, {
  matches: [
    'pixi/cj-090-build-failure',
    'uv/py-072-build-failure',
    'uv/py-074-build-failure',
  ],
  ignores: [
    'uv/py-136-timeout',
    'uv/py-138-timeout',
  ],
})
