import { anyDiskFull } from '../../../../src/diagnose/rules/any-disk-full.js'
import { describeRule } from '../rule-cases.js'

describeRule(anyDiskFull, {
  matches: [
    'npm/cj-165-disk-full',
    'pip/py-100-disk-full',
    'pip/py-101-disk-full',
    'pip/py-102-disk-full',
    'yarn/cj-162-disk-full',
    'yarn/cj-163-disk-full',
  ],
  ignores: [
    'pip/py-094-permission',
    'yarn/cj-181-timeout',
    'npm/cj-159-permission',
  ],
})
