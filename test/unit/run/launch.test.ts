import { afterEach, describe, expect, it } from 'vitest'
import { deferExtraCaCerts, extraCaCertsDeferred } from '../../../src/own-trust.js'
import { adoptLaunchContext } from '../../../src/run/launch.js'

// The CLI entry takes what the launcher (bin/resilient) handed over, and gives every child the environment as the
// person set it: NODE_EXTRA_CA_CERTS included, which the launcher kept from Node's own start.
afterEach(() => deferExtraCaCerts(undefined))

describe('NODE_EXTRA_CA_CERTS kept from Node by the launcher', () => {
  it('is put back exactly as set, and resilient\'s own connections read it themselves', () => {
    const env: NodeJS.ProcessEnv = { RESILIENT_LAUNCH_EXTRA_CA_CERTS: '/etc/ssl/extra ca.pem', PATH: '/usr/bin' }
    adoptLaunchContext(env)
    expect(env).toEqual({ NODE_EXTRA_CA_CERTS: '/etc/ssl/extra ca.pem', PATH: '/usr/bin' })
    expect(extraCaCertsDeferred()).toBe(true)
  })

  it('is put back empty when it was set empty (Node ignores it then, and so does resilient)', () => {
    const env: NodeJS.ProcessEnv = { RESILIENT_LAUNCH_EXTRA_CA_CERTS: '' }
    adoptLaunchContext(env)
    expect(env).toEqual({ NODE_EXTRA_CA_CERTS: '' })
    expect(extraCaCertsDeferred()).toBe(false)
  })

  it('is left to Node where Node had it (started without the launcher): nothing is deferred or overwritten', () => {
    const env: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: '/mine.pem', RESILIENT_LAUNCH_EXTRA_CA_CERTS: '/other.pem' }
    adoptLaunchContext(env)
    expect(env).toEqual({ NODE_EXTRA_CA_CERTS: '/mine.pem' })
    expect(extraCaCertsDeferred()).toBe(false)
  })

  it('stays unset when it was', () => {
    const env: NodeJS.ProcessEnv = { RESILIENT_LAUNCH_SIGIGN: '0000000000000000' }
    adoptLaunchContext(env)
    expect(env).toEqual({})
    expect(extraCaCertsDeferred()).toBe(false)
  })
})
