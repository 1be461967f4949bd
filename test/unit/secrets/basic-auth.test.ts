import { describe, expect, it } from 'vitest'
import { takeBasicAuth } from '../../../src/secrets/url.js'

describe('takeBasicAuth', () => {
  it('moves decoded userinfo into a Basic header and leaves the URL without it', () => {
    const url = new URL('https://al%40ice:p%3Ass@pypi.corp.example/simple/')
    expect(takeBasicAuth(url)).toBe(`Basic ${Buffer.from('al@ice:p:ss').toString('base64')}`)
    expect(url.toString()).toBe('https://pypi.corp.example/simple/')
  })

  it('gives nothing for a URL without credentials and leaves it unchanged', () => {
    const url = new URL('http://127.0.0.1:8080/simple/')
    expect(takeBasicAuth(url)).toBeUndefined()
    expect(url.toString()).toBe('http://127.0.0.1:8080/simple/')
  })
})
