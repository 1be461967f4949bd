import { describe, expect, it } from 'vitest'
import { LookAhead, type HeldPage } from '../../../src/relay/look-ahead.js'
import { packumentName, packumentPath } from '../../../src/relay/protocol-npm.js'
import { dependenciesOf, registryPackage } from '../../../src/tools/relay/npm-dependencies.js'

const COLD = { accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*', 'pacote-pkg-id': 'registry:root' }

function packument(name: string, dependencies: Record<string, string> = {}, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ name, 'dist-tags': { latest: '2.0.0' }, versions: { '1.0.0': { dependencies: { old: '^1' } }, '2.0.0': { dependencies, ...extra } } })
}

/** A look-ahead over a fake registry: records what it asked for, answers from `registry` after the test says so. */
function harness(registry: Record<string, string>, seeds: string[] = [], locked: string[] = [], limits = {}) {
  const asked: { path: string; headers: Record<string, string> }[] = []
  const waiting: (() => void)[] = []
  let hold = false
  const lookAhead = new LookAhead(async (path, headers) => {
    asked.push({ path, headers })
    if (hold) await new Promise<void>(resolve => waiting.push(resolve))
    const name = packumentName(path)!
    const text = registry[name]
    return text === undefined ? undefined : { status: 200, headers: {}, body: Buffer.from(text), source: 'index', upstreamBytes: text.length } satisfies HeldPage
  }, packumentPath, { seeds: ['root', ...seeds], locked }, limits)
  const settle = () => new Promise(resolve => setTimeout(resolve, 5))
  return { lookAhead, asked, names: () => asked.map(entry => packumentName(entry.path)), settle, hold: (on: boolean) => { hold = on; if (!on) waiting.splice(0).forEach(resolve => resolve()) } }
}

describe('which names a packument path and a dependency spec give', () => {
  it('reads plain and scoped packument paths, nothing else', () => {
    expect(packumentName('react')).toBe('react')
    expect(packumentName('@types%2fnode')).toBe('@types/node')
    expect(packumentName('@types%2Fnode')).toBe('@types/node')
    expect(packumentName('react/18.0.0')).toBeUndefined()
    expect(packumentName('react?write=true')).toBeUndefined()
    expect(packumentName('-/v1/search')).toBeUndefined()
  })

  it('follows ranges, tags and npm: aliases, never git, file, URL or GitHub specs', () => {
    expect(registryPackage('a', '^1.2.0')).toBe('a')
    expect(registryPackage('a', 'latest')).toBe('a')
    expect(registryPackage('a', '>=1 <2 || 3.x')).toBe('a')
    expect(registryPackage('a', 'npm:b@^2')).toBe('b')
    expect(registryPackage('a', 'npm:@s/b@^2')).toBe('@s/b')
    for (const spec of ['file:../a', 'link:../a', 'git+https://host/a.git', 'github:u/a', 'u/a', 'https://host/a.tgz', 'workspace:*', 42]) expect(registryPackage('a', spec)).toBeUndefined()
  })

  it('takes dependencies, optional ones, dev ones when asked, and required peers', () => {
    expect(dependenciesOf({ dependencies: { a: '^1', b: 'git+https://h/b.git' }, optionalDependencies: { c: '1' }, peerDependencies: { d: '*', e: '*' }, peerDependenciesMeta: { e: { optional: true } } }, { dev: '^2' }))
      .toEqual(['a', 'c', 'dev', 'd'])
  })
})

describe('the relay fetching packuments ahead of npm', () => {
  it('waits for a cold request, then fetches the seeds (never what they depend on), and answers npm from them', async () => {
    const registry = { root: packument('root'), a: packument('a', { c: '^1' }), b: packument('b'), c: packument('c') }
    const { lookAhead, names, settle } = harness(registry, ['b', 'a'])
    await settle()
    expect(names()).toEqual([])
    expect(lookAhead.take('root', COLD)).toBeUndefined()
    await settle()
    expect(names()).toEqual(['a', 'b'])
    const held = await lookAhead.take('a', COLD)
    expect(held?.body.toString()).toBe(registry.a)
    expect(lookAhead.counts).toMatchObject({ fetched: 2, used: 1 })
    // Taken once: a second request goes upstream.
    expect(lookAhead.take('a', COLD)).toBeUndefined()
  })

  it('asks with the tool\'s own headers, its package id set to each package', async () => {
    const { lookAhead, asked, settle } = harness({ a: packument('a') }, ['a'])
    lookAhead.take('root', { ...COLD, 'npm-session': 's1' })
    await settle()
    expect(asked[0]!.headers).toMatchObject({ accept: COLD.accept, 'npm-session': 's1', 'pacote-pkg-id': 'registry:a' })
  })

  it('never starts on a request that revalidates a cached copy, and leaves such a request to the tool', async () => {
    const { lookAhead, names, settle } = harness({ a: packument('a') }, ['a'])
    expect(lookAhead.take('root', { ...COLD, 'if-none-match': '"x"' })).toBeUndefined()
    await settle()
    expect(names()).toEqual([])
    lookAhead.take('root', COLD)
    await settle()
    expect(names()).toEqual(['a'])
    expect(lookAhead.take('a', { ...COLD, 'if-modified-since': 'Tue, 01 Jan 2030 00:00:00 GMT' })).toBeUndefined()
    expect(lookAhead.take('a', COLD)).toBeUndefined()
  })

  it('starts on a request for one of the project\'s packages, with its headers, not on npm\'s update check (another Accept)', async () => {
    const { lookAhead, names, settle } = harness({ a: packument('a'), b: packument('b') }, ['a', 'b'])
    lookAhead.take('npm', COLD)
    await settle()
    expect(names()).toEqual([])
    lookAhead.take('a', { accept: 'application/json' })
    await settle()
    expect(names()).toEqual(['b', 'root'])
    expect((await lookAhead.take('b', { accept: 'application/json' }))?.body.toString()).toBe(packument('b'))
  })

  it('answers only a request with the Accept it fetched with', async () => {
    const { lookAhead, settle } = harness({ a: packument('a') }, ['a'])
    lookAhead.take('root', COLD)
    await settle()
    expect(lookAhead.take('a', { accept: 'application/json' })).toBeUndefined()
  })

  it('never fetches what the lockfile has or what the tool asked for itself', async () => {
    const registry = { a: packument('a'), b: packument('b'), locked: packument('locked') }
    const { lookAhead, names, settle } = harness(registry, ['a', 'b', 'locked'], ['locked'])
    lookAhead.take('b', COLD)
    await settle()
    expect(names()).toEqual(['a', 'root'])
  })

  it('fetches a scoped package only once the tool has asked the relay for one of that scope', async () => {
    const registry = { a: packument('a'), '@corp/secret': packument('@corp/secret'), '@pub/x': packument('@pub/x'), '@pub/y': packument('@pub/y') }
    const { lookAhead, names, settle } = harness(registry, ['a', '@corp/secret', '@pub/y', '@pub/x'])
    lookAhead.take('root', COLD)
    await settle()
    expect(names()).toEqual(['a'])
    lookAhead.take('@pub/z', COLD)
    await settle()
    expect(names()).toEqual(['a', '@pub/x', '@pub/y'])
    expect(names()).not.toContain('@corp/secret')
  })

  it('keeps a bounded number in flight and in memory, and a request for one in flight waits for it', async () => {
    const registry = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, packument(`p${i}`)]))
    const { lookAhead, names, settle, hold } = harness(registry, Object.keys(registry), [], { concurrency: 3, maxHeldBytes: 2 * registry.p0!.length })
    hold(true)
    lookAhead.take('root', COLD)
    await settle()
    expect(names()).toEqual(['p0', 'p1', 'p10'])
    const waiting = lookAhead.take('p0', COLD)
    hold(false)
    expect((await waiting)?.body.toString()).toBe(registry.p0)
    await settle()
    // Held bytes reach the bound (checked before each start, so up to the concurrency over it): fetching waits.
    const first = names().length
    expect(first).toBeLessThan(8)
    await settle()
    expect(names()).toHaveLength(first)
    for (const name of names().slice(1)) await lookAhead.take(name!, COLD)
    await settle()
    expect(names().length).toBeGreaterThan(first)
  })

  it('stops at the run\'s count of names, and fetches nothing after close', async () => {
    const registry = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`p${i}`, packument(`p${i}`)]))
    const capped = harness(registry, Object.keys(registry), [], { maxNames: 4 })
    capped.lookAhead.take('root', COLD)
    await capped.settle()
    expect(capped.names()).toHaveLength(4)
    const closed = harness(registry, Object.keys(registry))
    closed.lookAhead.close()
    closed.lookAhead.take('root', COLD)
    await closed.settle()
    expect(closed.names()).toEqual([])
  })

  it('a failed fetch leaves the request to the tool', async () => {
    const { lookAhead, settle } = harness({}, ['gone'])
    lookAhead.take('root', COLD)
    await settle()
    expect(await lookAhead.take('gone', COLD)).toBeUndefined()
    expect(lookAhead.counts.used).toBe(0)
  })
})
