import { describe, expect, it } from 'vitest'
import { TOOLS } from '../../../src/tools/index.js'
import type { ToolAdapter } from '../../../src/tools/types.js'
import { classifyVerb } from '../../../src/tools/verbs.js'

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
    for (const verb of verbs.publish ?? []) expect(adapter.classify([verb]), verb).toBe('publish')
  })

  it('is used by the npm family, cargo, go, pdm, poetry and pipx', () => expect(declared.map(adapter => adapter.name).sort()).toEqual(['bun', 'cargo', 'go', 'npm', 'pdm', 'pipx', 'pnpm', 'poetry']))
})
