import { describe, expect, it } from 'vitest'
import { configSchema } from '../../../src/config/schema.js'
import { planSources } from '../../helpers/plan-helpers.js'
import { orderSources } from '../../../src/plan/sources.js'
import { TOOLS } from '../../../src/tools/index.js'

const plan = (userIndex: string | null, config: Record<string, unknown> = {}, locked = false) =>
  planSources({ adapter: TOOLS.pip, config: configSchema.parse(config), userIndex: userIndex ? { url: userIndex, origin: 'test', locked } : null })

describe('orderSources', () => {
  it('keeps the public default untouched and lists the catalog as fallbacks', () => {
    const result = plan(null)
    expect(result.primary).toMatchObject({ kind: 'upstream', url: undefined })
    expect(result.fallbacks[0]).toMatchObject({ id: 'tuna', url: 'https://pypi.tuna.tsinghua.edu.cn/simple' })
  })

  it('never replaces a private index', () => {
    const result = plan('https://user:secret@pypi.corp.example/simple')
    expect(result.primary.kind).toBe('private')
    expect(result.fallbacks).toEqual([])
    expect(result.noSwitchReason).toMatch(/never sent elsewhere/)
    expect(JSON.stringify(result)).not.toContain('user:secret@pypi.corp.example/simple",') // label shows the host only
  })

  it('treats a private index named in the config as replaceable by the configured mirrors', () => {
    const result = plan('https://pypi.corp.example/simple', { pypi: { index: 'https://pypi.corp.example/simple', mirrors: ['aliyun'] } })
    expect(result.fallbacks.map(source => source.id)).toEqual(['aliyun'])
  })

  it('an index named only in the config, with no mirrors listed beside it, is the person\'s own: no catalog mirror serves its names', () => {
    for (const index of ['https://pypi.corp.example/simple', 'http://127.0.0.1:3141/root/pypi/+simple']) {
      const result = plan(null, { pypi: { index } })
      expect(result.primary).toMatchObject({ url: index })
      expect(result.fallbacks).toEqual([])
    }
    // The public upstream or a catalog mirror named as the index keeps the catalog; mirrors listed beside any index are used.
    expect(plan(null, { pypi: { index: 'https://pypi.org/simple' } }).fallbacks[0]).toMatchObject({ id: 'tuna' })
    expect(plan(null, { pypi: { index: 'https://mirrors.aliyun.com/pypi/simple/' } }).fallbacks.length).toBeGreaterThan(0)
    expect(plan(null, { pypi: { index: 'https://pypi.corp.example/simple', mirrors: ['tuna'] } }).fallbacks.map(source => source.id)).toEqual(['tuna'])
  })

  it('treats a known mirror chosen by the user as switchable, with upstream for lagging versions', () => {
    const result = plan('https://mirrors.aliyun.com/pypi/simple/')
    expect(result.primary.kind).toBe('mirror')
    expect(result.fallbacks.map(source => source.id)).not.toContain('aliyun')
    expect(result.upstream?.url).toBe('https://pypi.org/simple')
  })

  it('does not switch when a requirement file pins the index', () => {
    expect(plan('https://pypi.org/simple', {}, true).fallbacks).toEqual([])
  })

  it('never replaces a local index or --no-index', () => {
    expect(plan('none').primary.kind).toBe('local')
    expect(plan('file:///opt/wheels').fallbacks).toEqual([])
  })

  it('skips plain-http mirrors unless allowed, but allows loopback', () => {
    const result = plan(null, { pypi: { mirrors: ['http://mirror.example/simple', 'http://127.0.0.1:9/simple'] } })
    expect(result.fallbacks.map(source => source.url)).toEqual(['http://127.0.0.1:9/simple'])
    expect(plan(null, { allowInsecure: true, pypi: { mirrors: ['http://mirror.example/simple'] } }).fallbacks).toHaveLength(1)
  })

  it('uses no mirror at all with mirrors: false', () => {
    expect(plan(null, { mirrors: false }).fallbacks).toEqual([])
  })

  it('puts --mirror values first, as documented, before the index', () => {
    const config = configSchema.parse({})
    const result = planSources({ adapter: TOOLS.pip, config, userIndex: null, preferredMirrors: ['aliyun'] })
    expect(result.primary.id).toBe('upstream')
    expect(result.fallbacks[0]).toMatchObject({ id: 'aliyun' })
    expect(orderSources({ adapter: TOOLS.pip, config, userIndex: null, preferredMirrors: ['aliyun'] }).sources.map(entry => entry.source.id).slice(0, 3)).toEqual(['aliyun', 'upstream', 'tuna'])
  })

  it('never uses --mirror for a private index, and says so', () => {
    const result = planSources({ adapter: TOOLS.pip, config: configSchema.parse({}), userIndex: { url: 'https://pypi.corp.example/simple', origin: '--index-url' }, preferredMirrors: ['aliyun'] })
    expect(result.fallbacks).toEqual([])
    expect(result.warnings.join()).toMatch(/--mirror aliyun is not used: pypi\.corp\.example .* never sent elsewhere/)
  })
})

describe('an index is its scheme, host, port and path: another repository on a known host is the user\'s own', () => {
  const artifactory = 'https://artifactory.corp.example/api/pypi/pypi-remote/simple'
  it.each([
    ['pip', TOOLS.pip, artifactory, 'https://artifactory.corp.example/api/pypi/team-private/simple'],
    ['npm', TOOLS.npm, 'https://artifactory.corp.example/api/npm/npm-remote/', 'https://artifactory.corp.example/api/npm/team-npm/'],
    ['pip, a path below the declared index', TOOLS.pip, 'https://nexus.corp.example/repository/', 'https://nexus.corp.example/repository/private/simple'],
  ] as const)('%s: no mirror for the private repository', (_, adapter, declared, chosen) => {
    const ecosystem = adapter.ecosystem
    const result = planSources({ adapter, config: configSchema.parse({ [ecosystem]: { index: declared, mirrors: ['https://mirror.example/x'] } }), userIndex: { url: chosen, origin: '--index-url' } })
    expect(result.primary.kind).toBe('private')
    expect(result.fallbacks).toEqual([])
    expect(result.noSwitchReason).toMatch(/not a public index known to resilient/)
  })

  it('the declared repository itself, spelled with a trailing slash, keeps its mirrors', () => {
    const result = planSources({ adapter: TOOLS.pip, config: configSchema.parse({ pypi: { index: artifactory, mirrors: ['https://mirror.example/simple'] } }), userIndex: { url: `${artifactory}/`, origin: '--index-url' } })
    expect(result.fallbacks.map(source => source.url)).toEqual(['https://mirror.example/simple'])
  })
})
