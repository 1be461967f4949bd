import { describe, expect, it } from 'vitest'
import { relayAddress, relaySecret } from '../../../src/relay/address.js'

describe('the relay\'s address across runs', () => {
  it('is the same for every run of a user, whatever the state directory: derived, never kept in a file', () => {
    const one = relayAddress({ HOME: '/home/me', RESILIENT_STATE_DIR: '/nonexistent/a' })
    expect(relayAddress({ HOME: '/home/me', RESILIENT_STATE_DIR: '/nonexistent/b', XDG_STATE_HOME: '/elsewhere' })).toEqual(one)
    // Another home of the same user (a container, a CI job beside it): another address, no port to compete for.
    expect(relayAddress({ HOME: '/home/other' }, [], 'linux').host).not.toBe(relayAddress({ HOME: '/home/me' }, [], 'linux').host)
    expect(one.port).toBeGreaterThanOrEqual(20_000)
    expect(one.port).toBeLessThan(32_000)
  })

  it('on Linux, a loopback address of its own: never 127.0.0.1 (whose netrc entries other local servers share), never 127.0.x.x', () => {
    const { host } = relayAddress({}, [], 'linux')
    expect(host).toMatch(/^127\.(\d+)\.(\d+)\.(\d+)$/)
    expect(host).not.toMatch(/^127\.0\./)
  })

  it('derives another address when its host is taken (a netrc machine, a source of the tool), the same one every time', () => {
    const first = relayAddress({}, [], 'linux')
    const other = relayAddress({}, [first.host], 'linux')
    expect(other.host).not.toBe(first.host)
    expect(relayAddress({}, [first.host.toUpperCase()], 'linux')).toEqual(other)
  })

  it('elsewhere (macOS has 127.0.0.1 alone), 127.0.0.1 with the same port', () => {
    expect(relayAddress({}, ['127.0.0.1'], 'darwin')).toEqual({ host: '127.0.0.1', port: relayAddress({}, [], 'linux').port })
  })

  it('makes a new secret for every run', () => {
    expect(relaySecret()).not.toBe(relaySecret())
    expect(relaySecret()).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })
})
