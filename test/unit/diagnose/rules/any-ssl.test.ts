import { anySsl } from '../../../../src/diagnose/rules/any-ssl.js'
import { describeRule } from '../rule-cases.js'

describeRule(anySsl, {
  matches: [
    'conda/cj-007-ssl',
    'conda/cj-008-ssl',
    'micromamba/cj-024-ssl',
    'npm/cj-112-ssl',
    'npm/cj-113-ssl',
    'npm/cj-117-ssl',
    'pip/py-013-ssl',
    'pip/py-024-ssl',
    'pip/py-025-ssl',
    'pip/py-026-ssl',
    'pip/py-027-ssl',
    'pip/py-157-ssl',
    'pixi/cj-076-ssl',
    'pixi/r2-nw-34-ssl',
    'uv/py-133-ssl',
    'yarn/cj-111-ssl',
  ],
  ignores: [
    'pip/py-030-connection',
    'npm/cj-120-proxy',
    'conda/cj-001-connection',
    'yarn/cj-184-hash-mismatch',
  ],
})
