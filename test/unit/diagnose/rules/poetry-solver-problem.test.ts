import { poetrySolverProblem } from '../../../../src/diagnose/rules/poetry-solver-problem.js'
import { describeRule } from '../rule-cases.js'

describeRule(poetrySolverProblem, {
  matches: [
    'poetry/py-209-resolution-conflict',
  ],
  ignores: [
    'poetry/py-056-python-version',
    'poetry/py-210-build-failure',
  ],
})
