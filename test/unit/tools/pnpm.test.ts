import { findUserKnobs } from '../../../src/tools/knobs.js'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { pnpm } from '../../../src/tools/pnpm.js'
import { contextIn, folderWith, rewrite } from '../../helpers/tool-cases.js'

const M = 'https://mirror.test/npm/'
const _ = (line: string, expected: string) => () => expect(rewrite(pnpm, line, M)).toBe(expected)

describe('pnpm: rewriting', () => {
  it('adds --registry (pnpm 11 ignores npm_config_registry)', _('pnpm add lodash', `pnpm add lodash --registry=${M}`))
  it('rewrites install', _('pnpm install --frozen-lockfile', `pnpm install --frozen-lockfile --registry=${M}`))
  it('never touches fetch timeouts or retries', _('pnpm i', `pnpm i --registry=${M}`))
  it('gives dlx and create the registry in its variables (pnpm dlx refuses --registry; what follows is the program\'s)',
    _('pnpm dlx cowsay hi', `npm_config_registry=${M} NPM_CONFIG_REGISTRY=${M} pnpm_config_registry=${M} PNPM_CONFIG_REGISTRY=${M} pnpm dlx cowsay hi`))
  it('pnpx is pnpm dlx', () => expect(rewrite(pnpm.forExecutable!('pnpx')!, 'pnpx create-vite x', M)).toBe(`npm_config_registry=${M} NPM_CONFIG_REGISTRY=${M} pnpm_config_registry=${M} PNPM_CONFIG_REGISTRY=${M} pnpx create-vite x`))
  it('knows its fetch error from the program\'s output', () => {
    expect(pnpm.program!.fetchFailed(' ERR_PNPM_FETCH_503  GET http://127.0.0.1:1/x: Service Unavailable - 503\n')).toBe(true)
    expect(pnpm.program!.fetchFailed('hello from the program\n')).toBe(false)
  })
})

describe('pnpm: classify', () => {
  const classify = (args: string) => pnpm.classify(args.split(' ').filter(Boolean))
  it.each(['install', 'i', 'add x', 'update', 'up x', 'fetch', 'import', '--filter web add x', '-C pkg install'])('%s is network', args => expect(classify(args)).toBe('network'))
  it.each(['publish', 'login', 'logout', 'dist-tag add x@1 latest'])('%s is publish', args => expect(classify(args)).toBe('publish'))
  it.each(['', 'run build', 'exec tsc', 'list', 'why x', 'store path', 'install --offline', 'dlx --offline x'])('"%s" is local', args => expect(classify(args)).toBe('local'))
  it.each(['dlx x', 'create vite', '--silent dlx x a'])('"%s" is network and runs a program once', args => {
    expect(classify(args)).toBe('network')
    expect(pnpm.program?.runs(args.split(' '))).toBe(true)
  })
})

describe('pnpm: the user registry choice', () => {
  const project = folderWith({ 'package.json': '{}' })
  const index = (args: string, env: NodeJS.ProcessEnv = {}, cwd = project, home?: string) => pnpm.findUserIndex(contextIn(cwd, args, env, home))?.url
  it('reads --registry and its prefixes', () => {
    expect(index('add --registry https://r.test/ x')).toBe('https://r.test/')
    expect(index('add --reg=https://r.test/ x')).toBe('https://r.test/')
  })
  it('reads pnpm_config_registry (11+) and npm_config_registry (≤10) in any case', () => {
    expect(index('add x', { PNPM_CONFIG_REGISTRY: 'https://p.test/' })).toBe('https://p.test/')
    expect(index('add x', { npm_config_registry: 'https://n.test/' })).toBe('https://n.test/')
  })
  it('reads pnpm-workspace.yaml registry and registries.default', () => {
    expect(index('install', {}, folderWith({ 'pnpm-workspace.yaml': 'packages: [a]\nregistry: https://ws.test/\n' }))).toBe('https://ws.test/')
    const root = folderWith({ 'pnpm-workspace.yaml': "registries:\n  default: 'https://wsd.test/'\n  '@corp': https://corp.test/\n", 'pkg/package.json': '{}' })
    expect(index('install', {}, join(root, 'pkg'))).toBe('https://wsd.test/')
  })
  it('reads .npmrc and the global rc', () => {
    expect(index('install', {}, folderWith({ 'package.json': '{}', '.npmrc': 'registry=https://rc.test/\n' }))).toBe('https://rc.test/')
    const home = folderWith({ '.config/pnpm/rc': 'registry=https://global.test/\n' })
    expect(index('install', {}, project, home)).toBe('https://global.test/')
  })
  it('finds the user fetch knobs', () => {
    expect(findUserKnobs(pnpm, contextIn(project, 'install')).userSet).toBe(false)
    expect(findUserKnobs(pnpm, contextIn(project, 'install --fetch-timeout 100000')).userSet).toBe(true)
    expect(findUserKnobs(pnpm, contextIn(project, 'install', { pnpm_config_fetch_retries: '5' })).origin).toBe('pnpm_config_fetch_retries')
    expect(findUserKnobs(pnpm, contextIn(folderWith({ 'pnpm-workspace.yaml': 'fetchTimeout: 600000\n' }), 'install')).userSet).toBe(true)
  })
})

describe('pnpm dlx: its own steps', () => {
  // pnpm 12.26 runs `node --version` before fetching (strace -f of `pnpm dlx`): not the program, which is a package's bin.
  it('`node --version` is pnpm 12\'s own step; a program started by node is not', () => {
    expect(pnpm.program!.ownStep?.(['/usr/bin/node', '--version'])).toBe(true)
    expect(pnpm.program!.ownStep?.(['node', '--version'])).toBe(true)
    expect(pnpm.program!.ownStep?.(['/usr/bin/node', '/tmp/dlx-1/node_modules/.bin/cowsay', '--version'])).toBe(false)
    expect(pnpm.program!.ownStep?.(['/tmp/dlx-1/node_modules/.bin/cowsay'])).toBe(false)
    expect(pnpm.forExecutable!('pnpx')!.program!.ownStep?.(['node', '--version'])).toBe(true)
  })
})
