import { describe, expect, it } from 'vitest'
import { proxyFor, usesProxy } from '../../src/proxies.js'

// The one proxy policy of resilient's own requests (the mirror probes, the index probe, the hedge watch, the relay's
// upstream): the variables every tool reads, in the order curl and pip read them.
describe('proxyFor', () => {
  const env = { HTTPS_PROXY: 'http://secure.proxy:3128', http_proxy: 'http://plain.proxy:3128', ALL_PROXY: 'socks5://all.proxy:1080', NO_PROXY: 'internal.example, .corp.example' }

  it('takes HTTPS_PROXY for https and HTTP_PROXY for http, either case', () => {
    expect(proxyFor('https://pypi.org/simple/', env)).toBe('http://secure.proxy:3128')
    expect(proxyFor('http://pypi.org/simple/', env)).toBe('http://plain.proxy:3128')
  })

  it('falls back to ALL_PROXY, a SOCKS one included', () => {
    expect(proxyFor('https://pypi.org/simple/', { all_proxy: 'socks5://all.proxy:1080' })).toBe('socks5://all.proxy:1080')
  })

  it('goes direct to a host NO_PROXY names, or one under a domain it names, and everywhere with none set', () => {
    expect(proxyFor('https://internal.example/simple/', env)).toBeUndefined()
    expect(proxyFor('https://pkgs.corp.example/simple/', env)).toBeUndefined()
    expect(proxyFor('https://notinternal.example/simple/', env)).toBe('http://secure.proxy:3128')
    expect(proxyFor('https://pypi.org/simple/', { ...env, no_proxy: '*', NO_PROXY: undefined })).toBeUndefined()
    expect(usesProxy('https://pypi.org/simple/', {})).toBe(false)
  })
})
