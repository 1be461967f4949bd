import { describe, expect, it } from 'vitest'
import { bun } from '../../../src/tools/bun.js'
import { contextIn, folderWith, rewrite } from '../../helpers/tool-cases.js'

const M = 'https://mirror.test/npm/'

describe('bun', () => {
  it('adds --registry=', () => expect(rewrite(bun, 'bun add lodash', M)).toBe(`bun add lodash --registry=${M}`))
  it('adds nothing but the registry', () => expect(rewrite(bun, 'bun install', M)).toBe(`bun install --registry=${M}`))
  it('bypasses the manifest cache after a hash mismatch', () => expect(rewrite(bun, 'bun install', M, { bypassCache: true })).toBe(`bun install --registry=${M} --no-cache`))
  // `bun x` has no --no-cache, and anything appended after the package would be the program's argument.
  it('adds nothing after a program\'s name, even to bypass the cache', () => {
    expect(rewrite(bun, 'bun x cowsay hi', M, { bypassCache: true })).toBe(`BUN_CONFIG_REGISTRY=${M} bun x cowsay hi`)
    expect(rewrite(bun.forExecutable!('bunx')!, 'bunx cowsay hi', M, { bypassCache: true })).toBe(`BUN_CONFIG_REGISTRY=${M} bunx cowsay hi`)
  })
  it('leaves bun run alone', () => expect(rewrite(bun, 'bun run dev', M)).toBe('bun run dev'))

  const classify = (args: string) => bun.classify(args.split(' ').filter(Boolean))
  it.each(['install', 'i', 'add x', 'a x', 'update', 'remove x', '--cwd app install'])('%s is network', args => expect(classify(args)).toBe('network'))
  it.each(['', 'run dev', 'index.ts', 'pm ls', 'install --offline', 'x --offline cowsay'])('"%s" is local', args => expect(classify(args)).toBe('local'))
  it('bun x and bunx fetch a package and run its program once, the registry in BUN_CONFIG_REGISTRY', () => {
    expect(classify('x cowsay')).toBe('network')
    expect(bun.program?.runs(['x', 'cowsay'])).toBe(true)
    const bunx = bun.forExecutable!('bunx')!
    expect(bunx.classify(['cowsay', 'hi'])).toBe('network')
    expect(rewrite(bunx, 'bunx cowsay hi', 'https://m.test/npm/')).toBe('BUN_CONFIG_REGISTRY=https://m.test/npm/ bunx cowsay hi')
    expect(rewrite(bun, 'bun x cowsay hi', 'https://m.test/npm/')).toBe('BUN_CONFIG_REGISTRY=https://m.test/npm/ bun x cowsay hi')
    expect(bun.program!.neverRetried?.(['x', '--bun', 'vite'])).toMatch(/inside bun/)
    expect(bun.program!.ownStep?.(['/usr/bin/bun', 'add', 'cowsay', '--no-summary'])).toBe(true)
    expect(bun.program!.ownStep?.(['/usr/bin/node', '/tmp/bunx-0-cowsay/node_modules/.bin/cowsay'])).toBe(false)
    expect(bun.program!.fetchFailed('Resolving dependencies\nerror: GET http://127.0.0.1:1/x - 503\n')).toBe(true)
    expect(bun.program!.fetchFailed('error: ConnectionRefused downloading package manifest x\n')).toBe(true)
    expect(bun.program!.fetchFailed('hello\n')).toBe(false)
  })
  it('never redirects publish', () => expect(classify('publish')).toBe('publish'))

  const project = folderWith({ 'package.json': '{}' })
  const index = (cwd: string, args: string, env: NodeJS.ProcessEnv = {}, home?: string) => bun.findUserIndex(contextIn(cwd, args, env, home))?.url
  it('reads --registry and the three environment variables', () => {
    expect(index(project, 'add --registry https://r.test/ x')).toBe('https://r.test/')
    expect(index(project, 'add x', { BUN_CONFIG_REGISTRY: 'https://b.test/' })).toBe('https://b.test/')
    expect(index(project, 'add x', { NPM_CONFIG_REGISTRY: 'https://n.test/' })).toBe('https://n.test/')
    expect(index(project, 'add x', { npm_config_registry: 'https://l.test/' })).toBe('https://l.test/')
  })
  it('reads bunfig.toml registry as a string or a table, project then global', () => {
    expect(index(folderWith({ 'bunfig.toml': '[install]\nregistry = "https://s.test/"\n' }), 'install')).toBe('https://s.test/')
    expect(index(folderWith({ 'bunfig.toml': '[install.registry]\nurl = "https://t.test/"\ntoken = "x"\n' }), 'install')).toBe('https://t.test/')
    expect(index(project, 'install', {}, folderWith({ '.bunfig.toml': '[install]\nregistry = { url = "https://g.test/" }\n' }))).toBe('https://g.test/')
  })
  it('reads .npmrc', () => expect(index(folderWith({ 'package.json': '{}', '.npmrc': 'registry=https://rc.test/\n' }), 'install')).toBe('https://rc.test/'))
  it('ignores scoped registries in bunfig.toml', () => expect(index(folderWith({ 'bunfig.toml': '[install.scopes]\ncorp = "https://corp.test/"\n' }), 'install')).toBeUndefined())
})
