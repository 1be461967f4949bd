import { findUserKnobs } from '../../../src/tools/knobs.js'
import { chmodSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { yarnBerry } from '../../../src/tools/yarn-berry.js'
import { yarn } from '../../../src/tools/yarn.js'
import { planIn } from '../../helpers/plan-helpers.js'
import { contextIn, folderWith, rewrite } from '../../helpers/tool-cases.js'

const M = 'https://mirror.test/npm/'
const _ = (line: string, expected: string) => () => expect(rewrite(yarn, line, M)).toBe(expected)

describe('yarn 1: rewriting', () => {
  it('adds --registry', _('yarn add lodash', `yarn add lodash --registry ${M}`))
  it('treats bare yarn as install', _('yarn', `yarn --registry ${M}`))
  it('never touches the network timeout', _('yarn install', `yarn install --registry ${M}`))
  it('leaves a package.json script alone', _('yarn build', 'yarn build'))
})

describe('yarn 1: classify', () => {
  const classify = (args: string) => yarn.classify(args.split(' ').filter(Boolean))
  it.each(['', 'install', 'add x', 'upgrade', 'outdated', 'global add x', '--cwd app add x', '--registry https://r.test/ install'])('"%s" is network', args => expect(classify(args)).toBe('network'))
  it.each(['publish', 'login', 'logout', 'owner add u x', 'tag add x@1 latest'])('%s is publish', args => expect(classify(args)).toBe('publish'))
  it.each(['--version', 'run build', 'build', 'list', 'why x', 'cache clean', 'config get registry', 'install --offline'])('"%s" is local', args => expect(classify(args)).toBe('local'))
})

describe('yarn 1: the user registry choice', () => {
  const project = folderWith({ 'package.json': '{}' })
  const index = (args: string, env: NodeJS.ProcessEnv = {}, cwd = project, home?: string) => yarn.findUserIndex(contextIn(cwd, args, env, home))?.url
  it('reads --registry in both forms', () => {
    expect(index('add --registry https://r.test/ x')).toBe('https://r.test/')
    expect(index('add --registry=https://r.test/ x')).toBe('https://r.test/')
  })
  it('reads YARN_REGISTRY and npm_config_registry in any case', () => {
    expect(index('add x', { yarn_registry: 'https://y.test/' })).toBe('https://y.test/')
    expect(index('add x', { NPM_CONFIG_REGISTRY: 'https://n.test/' })).toBe('https://n.test/')
  })
  it('reads .yarnrc in the project or a parent, quoted or not, and as a default flag', () => {
    const root = folderWith({ '.yarnrc': '# yarn lockfile v1\nregistry "https://rc.test/"\n', 'app/package.json': '{}' })
    expect(index('install', {}, join(root, 'app'))).toBe('https://rc.test/')
    expect(index('install', {}, folderWith({ '.yarnrc': '"--registry" "https://flag.test/"\n' }))).toBe('https://flag.test/')
    expect(index('install', {}, project, folderWith({ '.yarnrc': 'registry https://home.test/\n' }))).toBe('https://home.test/')
  })
  it('reads .npmrc after .yarnrc', () => expect(index('install', {}, folderWith({ 'package.json': '{}', '.npmrc': 'registry=https://npmrc.test/\n' }))).toBe('https://npmrc.test/'))
  it('finds the user network timeout', () => {
    expect(findUserKnobs(yarn, contextIn(project, 'install')).userSet).toBe(false)
    expect(findUserKnobs(yarn, contextIn(project, 'install --network-timeout 600000')).userSet).toBe(true)
    expect(findUserKnobs(yarn, contextIn(folderWith({ '.yarnrc': 'network-timeout 600000\n' }), 'install')).userSet).toBe(true)
  })
  const lock = '# yarn lockfile v1\n\na@^1.0.0:\n  version "1.0.0"\n  resolved "https://registry.yarnpkg.com/a/-/a-1.0.0.tgz#abc"\n\nb@^1.0.0:\n  resolved "https://npm.corp.test/b/-/b-1.0.0.tgz#def"\n'
  it('rewrites yarn.lock for a mirror attempt: public registries follow the mirror, a private one stays', () => {
    const root = folderWith({ 'yarn.lock': lock })
    const plan = planIn(yarn, 'install', root, { npm: { mirrors: ['https://mirror.test/npm'] } })
    expect(plan.attempts[0]!.lockfileRewrite).toBeUndefined()
    expect(plan.attempts[0]!.hosts.map(host => `${host.host} ${host.role}`)).toEqual(['registry.yarnpkg.com index', 'npm.corp.test lockfile'])
    expect(plan.attempts[1]!.lockfileRewrite).toEqual({ file: join(root, 'yarn.lock'), from: ['https://registry.yarnpkg.com/'], to: 'https://mirror.test/npm/' })
    expect(plan.attempts[1]!.hosts.map(host => `${host.host} ${host.role}`)).toEqual(['mirror.test index', 'npm.corp.test lockfile'])
    expect(plan.lockedSources).toBe('yarn.lock pins 1 package to npm.corp.test: yarn 1 downloads them from there on every attempt; resilient points only public registries and those named in its config at a mirror, never a private one.')
  })
  it('says nothing about a berry lockfile', () => expect(planIn(yarn, 'install', folderWith({ 'yarn.lock': '__metadata:\n  version: 8\n' })).lockedSources).toBeUndefined())
})

describe('yarn: the variant by version', () => {
  const fakeYarn = (version: string) => {
    const bin = join(folderWith({ yarn: `#!/bin/sh\necho ${version}\n` }), 'yarn')
    chmodSync(bin, 0o755)
    return bin
  }
  it('is yarn 1 for 1.x', async () => expect((await yarn.resolveVariant!(fakeYarn('1.22.22'), {})).name).toBe('yarn'))
  it('is berry for 2.x and later', async () => expect((await yarn.resolveVariant!(fakeYarn('4.18.1'), {})).name).toBe('yarn-berry'))
  // The caller (src/state/variant-cache.ts) then takes yarn 1 for that run only, never keeping it.
  it('says it could not tell when the version cannot be read', async () => expect(yarn.resolveVariant!('/nonexistent/yarn', {})).rejects.toThrow())
})

describe('yarn berry', () => {
  const project = folderWith({ 'package.json': '{}' })
  // A top-level npmAuthToken goes to whatever registry berry uses; a mirror attempt clears it.
  it('sets YARN_NPM_REGISTRY_SERVER and clears the unscoped credentials', () => expect(rewrite(yarnBerry, 'yarn add lodash', M)).toBe(`YARN_NPM_REGISTRY_SERVER=https://mirror.test/npm YARN_NPM_AUTH_TOKEN='' YARN_NPM_AUTH_IDENT='' YARN_NPM_ALWAYS_AUTH=false yarn add lodash`))
  it('keeps the credentials on the user\'s own registry', () => expect(yarnBerry.applyIndex({ argv: ['yarn'], env: {} }, 'https://npm.corp.test', { kind: 'upstream' }).env).toEqual({ YARN_NPM_REGISTRY_SERVER: 'https://npm.corp.test' }))
  it('whitelists a plain-http registry host', () => expect(rewrite(yarnBerry, 'yarn', 'http://127.0.0.1:4873/'))
    .toBe(`YARN_NPM_REGISTRY_SERVER=http://127.0.0.1:4873 YARN_UNSAFE_HTTP_WHITELIST=127.0.0.1 YARN_NPM_AUTH_TOKEN='' YARN_NPM_AUTH_IDENT='' YARN_NPM_ALWAYS_AUTH=false yarn`))
  it('never touches its http timeout or retries', () => expect(rewrite(yarnBerry, 'yarn install', M))
    .toBe(`YARN_NPM_REGISTRY_SERVER=https://mirror.test/npm YARN_NPM_AUTH_TOKEN='' YARN_NPM_AUTH_IDENT='' YARN_NPM_ALWAYS_AUTH=false yarn install`))
  const classify = (args: string) => yarnBerry.classify(args.split(' ').filter(Boolean))
  it.each(['', 'install', 'add x', 'up x', 'npm info x', 'workspaces focus a'])('"%s" is network', args => expect(classify(args)).toBe('network'))
  it.each(['npm publish', 'npm login', 'npm tag add x@1 latest'])('%s is publish', args => expect(classify(args)).toBe('publish'))
  it.each(['--version', 'run build', 'npm audit', 'set version stable', 'config get npmRegistryServer', 'dlx --offline x'])('"%s" is local', args => expect(classify(args)).toBe('local'))
  it('dlx fetches a package and runs its program once', () => {
    expect(classify('dlx create-vite x')).toBe('network')
    expect(yarnBerry.program?.runs(['dlx', 'create-vite'])).toBe(true)
    expect(yarnBerry.program?.runs(['add', 'x'])).toBe(false)
    expect(yarnBerry.program!.fetchFailed('➤ YN0035: │   Response Code: 503 (Service Unavailable)\n\n➤ Errors happened when preparing the environment required to run this command.\n')).toBe(true)
    expect(yarnBerry.program!.fetchFailed('➤ YN0000: · Done in 0s 93ms\n\nhello from bin\n')).toBe(false)
  })
  it('reads YARN_NPM_REGISTRY_SERVER in any case and .yarnrc.yml (nearest first, then home)', () => {
    expect(yarnBerry.findUserIndex(contextIn(project, '', { yarn_npm_registry_server: 'https://e.test' }))?.url).toBe('https://e.test')
    const root = folderWith({ '.yarnrc.yml': 'npmRegistryServer: "https://root.test"\n', 'app/.yarnrc.yml': 'nodeLinker: node-modules\n' })
    expect(yarnBerry.findUserIndex(contextIn(join(root, 'app'), ''))?.url).toBe('https://root.test')
    expect(yarnBerry.findUserIndex(contextIn(project, '', {}, folderWith({ '.yarnrc.yml': 'npmRegistryServer: https://home.test\n' })))?.url).toBe('https://home.test')
  })
  it('finds the user http knobs', () => {
    expect(findUserKnobs(yarnBerry, contextIn(project, '')).userSet).toBe(false)
    expect(findUserKnobs(yarnBerry, contextIn(project, '', { YARN_HTTP_TIMEOUT: '600000' })).userSet).toBe(true)
    expect(findUserKnobs(yarnBerry, contextIn(folderWith({ '.yarnrc.yml': 'httpRetry: 10\n' }), '')).userSet).toBe(true)
  })
})
