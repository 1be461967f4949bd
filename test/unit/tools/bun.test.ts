import { describe, expect, it } from 'vitest'
import { bun } from '../../../src/tools/bun.js'
import { contextIn, folderWith, rewrite } from '../../helpers/tool-cases.js'

const M = 'https://mirror.test/npm/'

describe('bun', () => {
  it('adds --registry=', () => expect(rewrite(bun, 'bun add lodash', M)).toBe(`bun add lodash --registry=${M}`))
  it('adds nothing but the registry', () => expect(rewrite(bun, 'bun install', M)).toBe(`bun install --registry=${M}`))
  it('bypasses the manifest cache after a hash mismatch', () => expect(rewrite(bun, 'bun install', M, { bypassCache: true })).toBe(`bun install --registry=${M} --no-cache`))
  it('leaves bun run alone', () => expect(rewrite(bun, 'bun run dev', M)).toBe('bun run dev'))

  const classify = (args: string) => bun.classify(args.split(' ').filter(Boolean))
  it.each(['install', 'i', 'add x', 'a x', 'update', 'remove x', '--cwd app install'])('%s is network', args => expect(classify(args)).toBe('network'))
  it.each(['', 'run dev', 'x cowsay', 'index.ts', 'pm ls', 'install --offline'])('"%s" is local', args => expect(classify(args)).toBe('local'))
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
