import { describe, expect, it } from 'vitest'
import { configSchema } from '../../../src/config/schema.js'
import { effectiveMirrors, knownMirrors } from '../../../src/config/effective-mirrors.js'
import { guessEcosystem, parseEcosystem } from '../../../src/cli/commands/ecosystem-of.js'
import { MIRRORS } from '../../../src/mirrors/index.js'

const config = (value: unknown) => configSchema.parse(value)

describe('effectiveMirrors', () => {
  it('is the upstream, then the catalog in order, when nothing is configured', () => {
    const listed = effectiveMirrors('pypi', config({}))
    expect(listed[0]).toMatchObject({ id: 'upstream', url: 'https://pypi.org/simple', role: 'index' })
    expect(listed.slice(1).map(mirror => mirror.id)).toEqual(MIRRORS.pypi.map(mirror => mirror.id))
    expect(listed.slice(1).every(mirror => mirror.role === 'mirror' && mirror.origin === 'catalog')).toBe(true)
  })

  it('follows the configured list (names, your own names, URLs) and shows the rest as unused', () => {
    const listed = effectiveMirrors('pypi', config({ pypi: { index: 'https://pypi.corp.example/simple', mirrors: ['corp2', 'aliyun', 'https://m.example/simple'], custom: { corp2: 'https://corp2.example/simple' } } }))
    expect(listed.map(mirror => [mirror.id, mirror.role, mirror.position, mirror.origin])).toEqual([
      ['pypi.corp.example', 'index', undefined, 'url'],
      ['corp2', 'mirror', 1, 'custom'],
      ['aliyun', 'mirror', 2, 'catalog'],
      ['m.example', 'mirror', 3, 'url'],
      ...MIRRORS.pypi.filter(mirror => mirror.id !== 'aliyun').map(mirror => [mirror.id, 'unused', undefined, 'catalog']),
    ])
  })

  it('never lets your own name shadow a catalog name', () => {
    expect(knownMirrors('pypi', config({ pypi: { custom: { tuna: 'https://evil.example/simple' } } })).filter(mirror => mirror.id === 'tuna').map(mirror => mirror.url))
      .toEqual([MIRRORS.pypi[0]!.url])
  })
})

describe('ecosystems', () => {
  it('are named directly or by a tool', () => {
    expect(parseEcosystem('pypi')).toBe('pypi')
    expect(parseEcosystem('pip')).toBe('pypi')
    expect(() => parseEcosystem('maven')).toThrow(/not an ecosystem/)
  })

  it('are guessed from an index URL', () => {
    expect(guessEcosystem('https://pypi.corp.example/simple')).toBe('pypi')
    expect(guessEcosystem('https://registry.npmmirror.com/')).toBe('npm')
    expect(guessEcosystem('https://mirrors.aliyun.com/pypi/simple')).toBe('pypi')
    expect(guessEcosystem('https://mirrors.aliyun.com/goproxy/')).toBe('go')
    expect(guessEcosystem('https://example.com/')).toBeUndefined()
  })
})
