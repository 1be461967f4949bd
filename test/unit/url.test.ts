import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hostAndPortOf, hostOf, indexKey, indexUrlOf, isLoopback, isUnderIndex, isWebUrl, labelOf, nameOfHostLabel, parseIndexUrl, sameIndex } from '../../src/url.js'

describe('hostOf and hostAndPortOf', () => {
  it.each([
    ['https://PyPI.org/simple/', 'pypi.org', 'pypi.org'],
    ['https://pypi.org:443/simple', 'pypi.org', 'pypi.org'],
    ['http://127.0.0.1:8080/simple', '127.0.0.1', '127.0.0.1:8080'],
    ['http://user:s3cret@corp.example:80/simple', 'corp.example', 'corp.example'],
    ['http://[::1]:3141/root/pypi/+simple/', '[::1]', '[::1]:3141'],
    ['http://[0:0:0:0:0:0:0:1]/', '[::1]', '[::1]'],
    ['sparse+https://Index.Crates.io/', 'index.crates.io', 'index.crates.io'],
  ])('%s → %s, %s', (url, host, hostAndPort) => {
    expect(hostOf(url)).toBe(host)
    expect(hostAndPortOf(url)).toBe(hostAndPort)
  })

  it('says undefined for what is not a URL, and never throws', () => {
    fc.assert(fc.property(fc.string(), text => {
      expect(() => [hostOf(text), hostAndPortOf(text), labelOf(text), sameIndex(text, text), indexKey(text)]).not.toThrow()
    }))
    expect(hostOf('./wheels')).toBeUndefined()
    expect(labelOf('./wheels')).toBe('./wheels')
  })
})

describe('sameIndex: scheme, host, port and path', () => {
  it.each([
    ['https://pypi.org/simple', 'https://pypi.org/simple/', true],
    ['https://pypi.org/simple', 'https://PYPI.ORG/simple', true],
    ['https://pypi.org:443/simple', 'https://pypi.org/simple', true],
    ['https://token@pypi.org/simple', 'https://pypi.org/simple', true],
    ['https://pypi.org/simple?x=1', 'https://pypi.org/simple', true],
    ['sparse+https://index.crates.io/', 'https://index.crates.io', true],
    ['https://pypi.org/simple', 'https://pypi.org/', false],
    ['http://pypi.org/simple', 'https://pypi.org/simple', true],
    ['http://pypi.org:8080/simple', 'https://pypi.org/simple', false],
    ['file:///pypi.org/simple', 'https://pypi.org/simple', false],
    ['http://127.0.0.1:8080/simple', 'http://127.0.0.1:8081/simple', false],
    ['http://[::1]:8080/simple', 'http://[0:0:0:0:0:0:0:1]:8080/simple', true],
    ['https://pypi.org/simple', 'https://test.pypi.org/simple', false],
    // Artifactory, Nexus: one host, a public remote and a private repository under other paths.
    ['https://artifactory.corp.example/api/pypi/pypi-remote/simple', 'https://artifactory.corp.example/api/pypi/team-private/simple', false],
    ['https://corp/npm/public/', 'https://corp/npm/public', true],
    ['https://corp/npm/public/', 'https://corp/npm/private/', false],
    ['https://corp/npm/', 'https://corp/npm/private/', false],
    ['https://user:pw@corp:443/simple/', 'https://corp/simple', true],
    ['file:///srv/a', 'file:///srv/b', false],
    ['not a url', 'not a url', false],
  ])('%s ~ %s: %s', (a, b, same) => expect(sameIndex(a, b)).toBe(same))
})

describe('isUnderIndex', () => {
  it.each([
    ['https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud/conda-forge', 'https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud', true],
    ['https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud', 'https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud/', true],
    ['https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloudy/x', 'https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud', false],
    ['https://mirrors.tuna.tsinghua.edu.cn/private/x', 'https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud', false],
    ['https://prefix.dev/conda-forge', 'https://prefix.dev', true],
    ['http://prefix.dev/conda-forge', 'https://prefix.dev', true],
    ['http://prefix.dev:8080/conda-forge', 'https://prefix.dev', false],
  ])('%s under %s: %s', (url, base, under) => expect(isUnderIndex(url, base)).toBe(under))
})

describe('indexKey', () => {
  it('drops credentials, query and trailing slashes', () => {
    expect(indexKey('https://user:tok@mirror.example/simple/?x=1')).toBe('https://mirror.example/simple')
    expect(indexKey('https://mirror.example:443/simple/')).toBe('https://mirror.example/simple')
  })
})

// Generated URLs: the comparisons are equivalences, and ignore what does not change the server or the path.
const hostName = fc.oneof(fc.domain(), fc.ipV4(), fc.ipV6().map(address => `[${address}]`))
const webUrl = fc.record({
  scheme: fc.constantFrom('http', 'https'), host: hostName, port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
  path: fc.array(fc.stringMatching(/^[a-z0-9._-]{1,8}$/), { maxLength: 3 }).map(parts => parts.join('/')),
}).map(({ scheme, host, port, path }) => `${scheme}://${host}${port ? `:${port}` : ''}/${path}`)

describe('properties', () => {
  it('sameIndex is reflexive and symmetric; a trailing slash, credentials or the default port change nothing', () => {
    fc.assert(fc.property(webUrl, webUrl, (a, b) => {
      expect(sameIndex(a, a)).toBe(true)
      expect(sameIndex(a, b)).toBe(sameIndex(b, a))
      const parsed = parseIndexUrl(a)!
      const withCredentials = `${parsed.protocol}//user:secret@${parsed.host}${parsed.pathname}`
      expect(sameIndex(a, withCredentials)).toBe(true)
      expect(sameIndex(a, `${a}/`)).toBe(true)
      expect(indexKey(withCredentials)).not.toContain('secret')
      const defaultPort = parsed.protocol === 'https:' ? 443 : 80
      if (!parsed.port) expect(sameIndex(a, `${parsed.protocol}//${parsed.hostname}:${defaultPort}${parsed.pathname}`)).toBe(true)
    }))
  })

  it('sameIndex implies the same host and port, and a path below an index is never that index', () => {
    fc.assert(fc.property(webUrl, webUrl, (a, b) => { if (sameIndex(a, b)) expect(hostAndPortOf(a)).toBe(hostAndPortOf(b)) }))
    fc.assert(fc.property(webUrl, fc.stringMatching(/^[a-z0-9_-]{1,8}$/), (a, segment) => {
      const below = `${a.replace(/\/+$/, '')}/${segment}`
      expect(sameIndex(a, below)).toBe(false)
      expect(isUnderIndex(below, a)).toBe(true)
    }))
  })

  it('every web URL is web, has a host, and a label that is its host and port', () => {
    fc.assert(fc.property(webUrl, url => {
      expect(isWebUrl(url)).toBe(true)
      expect(labelOf(url)).toBe(hostAndPortOf(url))
      expect(hostAndPortOf(url)!.startsWith(hostOf(url)!)).toBe(true)
    }))
  })
})

describe('isLoopback', () => {
  it.each([['http://localhost:1/', true], ['http://127.3.2.1/', true], ['http://[::1]:8080/', true], ['http://[0:0:0:0:0:0:0:1]/', true], ['http://10.0.0.1/', false]])('%s: %s', (url, loopback) => expect(isLoopback(url)).toBe(loopback))
})

describe('indexUrlOf', () => {
  it('reads the index a source talks to, whichever field holds it', () => {
    expect(indexUrlOf({ url: undefined, indexUrl: 'https://corp/simple' })).toBe('https://corp/simple')
    expect(indexUrlOf({ url: 'https://mirror/simple', indexUrl: 'https://mirror/simple' })).toBe('https://mirror/simple')
    expect(indexUrlOf({ url: 'https://mirror/simple' })).toBe('https://mirror/simple')
  })
})

describe('nameOfHostLabel', () => {
  it.each([['[::1]:8080', '::1'], ['PyPI.org', 'pypi.org'], ['127.0.0.1:3141', '127.0.0.1']])('%s → %s', (label, name) => expect(nameOfHostLabel(label)).toBe(name))
})
