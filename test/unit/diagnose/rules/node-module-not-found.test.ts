import { nodeModuleNotFound } from '../../../../src/diagnose/rules/node-module-not-found.js'
import { describeRule } from '../rule-cases.js'

describeRule(nodeModuleNotFound, {
  matches: [
    'npm/cj-188-module-not-found',
  ],
  ignores: [
    'python/py-119-module-not-found',
    'npm/cj-153-build-failure',
  ],
})
