import { describe, expect, it } from 'vitest'
import { diagnose } from '../../../src/diagnose/index.js'
import type { Failure } from '../../../src/diagnose/types.js'
import { relayBehind } from '../../../src/plan/relay.js'
import type { PlannedAttempt, RunPlan } from '../../../src/plan/types.js'

// What npm 11 prints when the relay answers its request with a 5xx (seen in test/e2e/relay-true-cause.e2e.test.ts).
const npmSaid = (status: '502 Bad Gateway' | '503 Service Unavailable', extra: Partial<Failure>): Failure => ({
  tool: 'npm', exitCode: 1, command: ['npm', 'install', 'left-pad-x'],
  output: `npm error code E${status.slice(0, 3)}\nnpm error ${status} - GET http://127.185.158.156:31632/left-pad-x\n`, ...extra })
const relay = { address: '127.185.158.156:31632', hosts: { 'registry.example.test': 'registry.example.test', tuna: 'mirrors.tuna.example:8443' } }

describe('a failure seen through resilient\'s relay', () => {
  it('names the source that failed behind the relay, never the relay\'s loopback address', () => {
    const diagnosis = diagnose(npmSaid('503 Service Unavailable', { relay, relayed: { 'registry.example.test': { served: 0, failures: { 'server-error': 2 } } } }))
    expect(diagnosis).toMatchObject({ category: 'server_error', facts: { host: 'registry.example.test' } })
    expect(diagnosis.summary).toBe('registry.example.test answered HTTP 503 (a server error)')
    expect(diagnosis.evidence.at(-1)).toBe("resilient's relay at 127.185.158.156:31632 stands for registry.example.test (0 served, 2 server-error): the tool's messages name the relay")
    // The tool's own lines are quoted as it printed them; what resilient says of the cause never names the relay.
    expect(JSON.stringify({ ...diagnosis, evidence: [] })).not.toMatch(/127\.185\.158\.156/)
  })

  it('says the cause the relay saw where the tool could only see its 502: a reset is a connection failure, not a server error', () => {
    const diagnosis = diagnose(npmSaid('502 Bad Gateway', { relay, relayed: { 'registry.example.test': { served: 0, failures: { reset: 1 } }, tuna: { served: 0, failures: { reset: 3 } } } }))
    expect(diagnosis).toMatchObject({ category: 'connection', facts: { host: 'registry.example.test', errno: 'ECONNRESET' } })
    expect(diagnosis.summary).toBe("registry.example.test reset the connection (seen by resilient's relay)")
    expect(diagnosis.evidence.at(-1)).toContain('registry.example.test (0 served, 1 reset), mirrors.tuna.example:8443 (0 served, 3 reset)')
  })

  it('names the relay as resilient\'s where no source behind it failed, and leaves a run without the relay alone', () => {
    expect(diagnose(npmSaid('502 Bad Gateway', { relay, relayed: { 'registry.example.test': { served: 4, failures: {} } } })).summary)
      .toBe("resilient's relay (127.185.158.156:31632) answered HTTP 502 (a server error)")
    expect(diagnose(npmSaid('503 Service Unavailable', {})).facts.host).toBe('127.185.158.156')
  })

  it('takes each source\'s host from its index URL, credentials left out', () => {
    const plan = { relay: { host: '127.185.158.156', port: 31632, sources: [{ id: 'npm.corp.test', indexUrl: 'https://me:s3cret@npm.corp.test/' }] } } as unknown as RunPlan
    expect(relayBehind(plan, { via: 'relay' } as PlannedAttempt)).toEqual({ address: '127.185.158.156:31632', hosts: { 'npm.corp.test': 'npm.corp.test' } })
    expect(relayBehind(plan, {} as PlannedAttempt)).toBeUndefined()
  })
})
