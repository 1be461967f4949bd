import { describe, expect, it } from 'vitest'
import { TOOLS } from '../../../src/tools/index.js'
import type { ToolAdapter } from '../../../src/tools/types.js'
import { classifyArgs, classifyVerb, findVerb } from '../../../src/tools/argv/verbs.js'

describe('the shared classify skeleton', () => {
  const table = { network: new Set(['install']), publish: new Set(['publish']), local: /^--offline$/ }
  it('publish first, then a local argument, then the network verbs; no verb is local', () => {
    expect(classifyVerb('publish', ['publish', '--offline'], table)).toBe('publish')
    expect(classifyVerb('install', ['install', '--offline'], table)).toBe('local')
    expect(classifyVerb('install', ['install', 'x'], table)).toBe('network')
    expect(classifyVerb('list', ['list'], table)).toBe('local')
    expect(classifyVerb(undefined, [], table)).toBe('local')
  })

  const declared = (Object.values(TOOLS) as ToolAdapter[]).filter(adapter => adapter.verbs)
  it.each(declared.map(adapter => [adapter.name, adapter] as const))('%s classifies by its declared verbs', (_, adapter) => {
    const verbs = adapter.verbs!
    const localArgs = ['--offline', '--frozen', '--help', '-mod=vendor'].filter(arg => verbs.local?.test(arg))
    for (const verb of verbs.network) {
      const args = verb.split(' ')
      expect(adapter.classify([...args, 'x']), verb).toBe('network')
      for (const arg of localArgs) expect(adapter.classify([...args, arg]), `${verb} ${arg}`).toBe('local')
    }
    for (const verb of verbs.publish ?? []) expect(adapter.classify(verb.split(' ')), verb).toBe('publish')
    // A conditional verb without its argument stays local.
    for (const verb of Object.keys(verbs.networkWhen ?? {})) expect(adapter.classify([...verb.split(' '), 'x']), verb).toBe('local')
  })

  it('a conditional verb is network only with its argument; no verb means what `bare` says', () => {
    const conditional = { network: new Set<string>(), networkWhen: { list: /^--outdated$/ }, bare: 'network' as const, local: /^--help$/ }
    expect(classifyVerb('list', ['list', '--outdated'], conditional)).toBe('network')
    expect(classifyVerb('list', ['list'], conditional)).toBe('local')
    expect(classifyVerb(undefined, [], conditional)).toBe('network')
    expect(classifyVerb(undefined, ['--help'], conditional)).toBe('local')
  })

  it('finds the verb after options with a value, and two words after a group name', () => {
    const syntax = { optionsWithValue: ['--cwd'], groups: new Set(['env']) }
    expect(findVerb(['--cwd', 'env', 'env', '--cwd', 'x', 'create'], syntax)).toBe('env create')
    expect(findVerb(['env'], syntax)).toBe('env')
    expect(findVerb(['-q', '--', 'install'], syntax)).toBeUndefined()
    expect(classifyArgs(['--cwd', 'install', 'env', 'update'], { network: new Set(['env update']), syntax })).toBe('network')
  })

  it('is used by every adapter', () => expect(declared.map(adapter => adapter.name).sort()).toEqual(Object.keys(TOOLS).sort()))
})
