import { describe, expect, it } from 'vitest'
import { diagnose } from '../../../../src/diagnose/index.js'
import { normalizeFailure } from '../../../../src/diagnose/normalize.js'
import { anySourceServerError } from '../../../../src/diagnose/rules/any-source-server-error.js'
import type { Failure } from '../../../../src/diagnose/types.js'
import { fixture } from '../rule-cases.js'

// The relay's count of what each source answered during the attempt (src/run/relay.ts) beside what pip printed: pip
// says the same "(from versions: none)" after a 503 as after a 404 (the capture), the relay saw which it was.
const pipSaid = (relayed: Failure['relayed']) => ({ ...fixture('pip/captured-other-nothing-listed-503'), relayed })

describe('any-source-server-error', () => {
  it('calls a source whose every answer was a 5xx a server error on that source, whatever the tool concluded', () => {
    const diagnosis = diagnose(pipSaid({ 'pypi.org': { served: 0, failures: { 'server-error': 6 } }, 'mirrors.example': { served: 0, failures: { 'not-found': 1 } } }))
    expect(diagnosis).toMatchObject({ category: 'server_error', ruleId: 'any-source-server-error', facts: { host: 'pypi.org' }, retryable: true })
    expect(diagnosis.summary).toBe('pypi.org answered every request with a server error (HTTP 5xx)')
    expect(diagnosis.evidence[0]).toBe("resilient's relay asked pypi.org: 6 answer(s), every one a server error (HTTP 5xx), none passed on")
  })

  it('says nothing of a source that also served pages, or failed otherwise too, or of a run without the relay', () => {
    const counts: Failure['relayed'][] = [{ 'pypi.org': { served: 3, failures: { 'server-error': 1 } } }, { 'pypi.org': { served: 0, failures: { 'server-error': 2, timeout: 1 } } }, {}, undefined]
    for (const relayed of counts) {
      expect(anySourceServerError.match(normalizeFailure(pipSaid(relayed)))).toBeNull()
    }
    expect(diagnose(pipSaid(undefined)).ruleId).toBe('pip-nothing-listed')
  })

  it('comes after what the tool words itself: a permission failure stays one', () => {
    const diagnosis = diagnose({ ...fixture('pip/py-094-permission'), relayed: { 'pypi.org': { served: 0, failures: { 'server-error': 1 } } } })
    expect(diagnosis.category).toBe('permission')
  })
})
