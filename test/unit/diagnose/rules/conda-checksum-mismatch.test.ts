import { condaChecksumMismatch } from '../../../../src/diagnose/rules/conda-checksum-mismatch.js'
import { describeRule } from '../rule-cases.js'

describeRule(condaChecksumMismatch, {
  matches: [
    'conda/cj-044-hash-mismatch',
    'conda/cj-047-hash-mismatch',
    'conda/cj-048-hash-mismatch',
  ],
  ignores: [
    'conda/cj-030-package-not-found',
    'micromamba/cj-024-ssl',
  ],
})
