import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { npm } from '../../../src/tools/npm.js'

function project(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'resilient-look-ahead-'))
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true })
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content))
  }
  return dir
}
const seedsOf = (args: string, cwd: string) => npm.relay!.lookAhead!({ args: args.split(' ').filter(Boolean), cwd, env: {}, home: cwd })
const seedsIn = (args: string, cwd: string) => seedsOf(args, cwd) ?? { seeds: ['(none)'], locked: [] }

const MANIFEST = {
  name: 'app', version: '1.0.0',
  dependencies: { react: '^18', alias: 'npm:real-name@^2', local: 'file:../local', git: 'git+https://host/x.git', gh: 'user/repo' },
  devDependencies: { vitest: '^4' }, optionalDependencies: { fsevents: '^2' }, peerDependencies: { peer: '*', soft: '*' },
  peerDependenciesMeta: { soft: { optional: true } },
}

describe('what npm\'s relay fetches ahead for a command', () => {
  it('the registry packages of package.json and of the command line, never file, git or GitHub specs', () => {
    const cwd = project({ 'package.json': MANIFEST })
    const { seeds, locked } = seedsIn('install @types/node@^20 ./tarball.tgz https://host/x.tgz --save-dev', cwd)
    expect([...seeds].sort()).toEqual(['@types/node', 'fsevents', 'peer', 'react', 'real-name', 'vitest'])
    expect(locked).toEqual([])
  })

  it('never fetches a name the project\'s workspaces provide, whatever spec depends on it (a range, an alias)', () => {
    const cwd = project({
      'package.json': { name: 'root', private: true, workspaces: ['packages/*', 'tools/cli'], dependencies: { 'corp-utils': '^1.0.0', react: '^18', other: 'npm:corp-cli@^1' } },
      'packages/utils/package.json': { name: 'corp-utils', version: '1.0.0' },
      'packages/app/package.json': { name: 'corp-app', version: '1.0.0', dependencies: { 'corp-utils': '^1.0.0', lodash: '^4' } },
      'tools/cli/package.json': { name: 'corp-cli', version: '1.0.0' },
    })
    const { seeds, locked } = seedsIn('install', join(cwd, 'packages', 'app'))
    expect([...seeds].sort()).toEqual(['lodash', 'react'])
    expect([...locked].sort()).toEqual(['corp-app', 'corp-cli', 'corp-utils'])
  })

  it('fetches nothing ahead when a workspaces pattern is beyond what it reads (it never guesses the project\'s own names)', () => {
    const cwd = project({ 'package.json': { name: 'root', workspaces: ['packages/{a,b}'], dependencies: { react: '^18' } } })
    expect(seedsIn('install', cwd).seeds).toEqual([])
  })

  it('leaves out what the lockfile or node_modules has, and says so as `locked`', () => {
    const cwd = project({
      'package.json': MANIFEST,
      'package-lock.json': { lockfileVersion: 3, packages: { '': {}, 'node_modules/react': {}, 'node_modules/react/node_modules/loose-envify': {} } },
      'node_modules/.package-lock.json': { lockfileVersion: 3, packages: { 'node_modules/vitest': {} } },
    })
    const { seeds, locked } = seedsIn('install', cwd)
    expect([...seeds].sort()).toEqual(['fsevents', 'peer', 'real-name'])
    expect([...locked].sort()).toEqual(['loose-envify', 'react', 'vitest'])
  })

  it('reads the project at --prefix, only the command line in global mode, and nothing for verbs that resolve no tree', () => {
    const cwd = project({ 'app/package.json': { dependencies: { lodash: '^4' } } })
    expect(seedsOf(`install --prefix ${join(cwd, 'app')}`, cwd)?.seeds).toEqual(['lodash'])
    expect(seedsOf('install -g cowsay', join(cwd, 'app'))).toEqual({ seeds: ['cowsay'], locked: [] })
    for (const verb of ['ci', 'update', 'view lodash', 'exec cowsay']) expect(seedsOf(verb, join(cwd, 'app')), verb).toBeUndefined()
  })

  it('a broken package.json gives nothing to fetch ahead rather than an error', () => {
    const cwd = project({ 'package.json': '{ not json' })
    expect(seedsOf('install', cwd)).toEqual({ seeds: [], locked: [] })
  })
})
