import { pixiBuildBackend } from '../../../../src/diagnose/rules/pixi-build-backend.js'
import { describeRule } from '../rule-cases.js'

describeRule(pixiBuildBackend, {
  matches: [
    'pixi/cj-088-build-failure',
  ],
  ignores: [
    'pixi/cj-090-build-failure',
    'pixi/cj-080-other',
  ],
})
