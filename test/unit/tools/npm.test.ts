import { findUserKnobs } from '../../../src/tools/knobs.js'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { planIn, planSources } from '../../helpers/plan-helpers.js'
import { configSchema } from '../../../src/config/schema.js'
import { npm } from '../../../src/tools/npm.js'
import { contextIn, folderWith, rewrite } from '../../helpers/tool-cases.js'

const M = 'https://mirror.test/npm/'
const _ = (line: string, expected: string) => () => expect(rewrite(npm, line, M)).toBe(expected)

describe('npm: rewriting', () => {
  it('adds the registry and turns audit off on a mirror', _('npm install lodash', `npm install lodash --registry=${M} --no-audit`))
  it('handles the i alias', _('npm i -D vitest', `npm i -D vitest --registry=${M} --no-audit`))
  it('handles ci', _('npm ci', `npm ci --registry=${M} --no-audit`))
  it('keeps what follows -- for the program', _('npm install x -- --foo', `npm install x --registry=${M} --no-audit -- --foo`))
  it('never touches fetch timeouts or retries', _('npm install x', `npm install x --registry=${M} --no-audit`))
  it('keeps audit on the upstream registry', () => expect(rewrite(npm, 'npm install x', 'https://registry.npmjs.org/')).toBe('npm install x --registry=https://registry.npmjs.org/'))
  it('leaves run alone', _('npm run build', 'npm run build'))
  it('leaves publish alone', _('npm publish', 'npm publish'))
})

describe('npm: classify', () => {
  const classify = (args: string) => npm.classify(args.split(' ').filter(Boolean))
  it.each(['install', 'i x', 'in x', 'isntall x', 'add x', 'ci', 'clean-install', 'install-test', 'cit', 'update', 'up', 'dedupe',
    'view x', '--registry https://r.test/ install x', '--loglevel silly ci'])('%s is network', args => expect(classify(args)).toBe('network'))
  it.each(['publish', 'login', 'adduser', 'whoami', 'dist-tag add x@1 latest', 'unpublish x', 'token list', 'owner ls x', 'deprecate x msg'])(
    '%s is publish', args => expect(classify(args)).toBe('publish'))
  it.each(['', 'run build', 'test', 'ls', 'config get registry', 'init', 'init -y', 'create', 'audit', 'cache clean', '--version', 'install --offline x', 'exec --offline x'])(
    '"%s" is local', args => expect(classify(args)).toBe('local'))
})

describe('npm: the user registry choice', () => {
  const project = folderWith({ 'package.json': '{}' })
  const index = (args: string, env: NodeJS.ProcessEnv = {}, cwd = project, home?: string) => npm.findUserIndex(contextIn(cwd, args, env, home))
  it.each([
    ['install --registry https://r.test/ x', 'https://r.test/'],
    ['install --registry=https://r.test/ x', 'https://r.test/'],
    ['install --reg https://r.test/ x', 'https://r.test/'],
    ['install --regi=https://r.test/ x', 'https://r.test/'],
    ['install --registr https://r.test/ x', 'https://r.test/'],
  ])('%s', (args, url) => expect(index(args)?.url).toBe(url))
  it('takes the last --registry', () => expect(index('i --registry=https://a.test/ --registry=https://b.test/ x')?.url).toBe('https://b.test/'))
  it('reads npm_config_registry in any case', () => {
    expect(index('install x', { NPM_CONFIG_REGISTRY: 'https://env.test/' })).toEqual({ url: 'https://env.test/', origin: 'NPM_CONFIG_REGISTRY' })
    expect(index('install x', { npm_config_registry: 'https://env.test/' })?.url).toBe('https://env.test/')
  })
  it('reads the project .npmrc from the package root, above the current folder', () => {
    const root = folderWith({ 'package.json': '{}', '.npmrc': '; company\nregistry = "https://corp.test/npm/"\n', 'src/deep/.keep': '' })
    expect(index('install x', {}, join(root, 'src', 'deep'))).toEqual({ url: 'https://corp.test/npm/', origin: join(root, '.npmrc') })
  })
  it('reads the user .npmrc and expands ${VAR}', () => {
    const home = folderWith({ '.npmrc': 'registry=https://${HOST}/\n' })
    expect(index('install x', { HOST: 'home.test' }, project, home)?.url).toBe('https://home.test/')
  })
  it('reads npm_config_userconfig and --userconfig', () => {
    const files = folderWith({ a: 'registry=https://a.test/\n', b: 'registry=https://b.test/\n' })
    expect(index('install x', { npm_config_userconfig: join(files, 'a') })?.url).toBe('https://a.test/')
    expect(index(`install --userconfig ${join(files, 'b')} x`, { npm_config_userconfig: join(files, 'a') })?.url).toBe('https://b.test/')
  })
  it('reads the global npmrc under the install prefix', () => {
    const prefix = folderWith({ 'etc/npmrc': 'registry=https://global.test/\n' })
    expect(npm.findUserIndex({ ...contextIn(project, 'install x'), executable: join(prefix, 'bin', 'npm') })?.url).toBe('https://global.test/')
  })
  it('flag beats env beats file', () => {
    const root = folderWith({ 'package.json': '{}', '.npmrc': 'registry=https://file.test/\n' })
    expect(index('install x', { npm_config_registry: 'https://env.test/' }, root)?.url).toBe('https://env.test/')
    expect(index('install --registry=https://flag.test/ x', { npm_config_registry: 'https://env.test/' }, root)?.url).toBe('https://flag.test/')
  })
  it('ignores scoped registries', () => expect(index('install x', {}, folderWith({ 'package.json': '{}', '.npmrc': '@corp:registry=https://corp.test/\n' }))).toBeNull())
  it('never replaces a private registry with a mirror', () => {
    const plan = planSources({ adapter: npm, config: configSchema.parse({}), userIndex: index('install --reg https://npm.corp.test/ x') })
    expect(plan.fallbacks).toEqual([])
    expect(plan.noSwitchReason).toMatch(/npm\.corp\.test/)
  })
  it('allows mirrors when the user names registry.npmjs.org', () => {
    const plan = planSources({ adapter: npm, config: configSchema.parse({}), userIndex: index('install --registry=https://registry.npmjs.org/ x') })
    expect(plan.fallbacks.map(source => source.id)).toContain('npmmirror')
  })
})

describe('npm: knobs and lockfiles', () => {
  const project = folderWith({ 'package.json': '{}' })
  it('finds the user fetch knobs in flags, env and npmrc', () => {
    expect(findUserKnobs(npm, contextIn(project, 'install x')).userSet).toBe(false)
    expect(findUserKnobs(npm, contextIn(project, 'install --fetch-timeout=600000 x')).origin).toBe('--fetch-timeout')
    expect(findUserKnobs(npm, contextIn(project, 'install x', { NPM_CONFIG_FETCH_RETRIES: '5' })).origin).toBe('NPM_CONFIG_FETCH_RETRIES')
    expect(findUserKnobs(npm, contextIn(folderWith({ 'package.json': '{}', '.npmrc': 'fetch-retry-maxtimeout=120000\n' }), 'ci')).userSet).toBe(true)
  })
  const lockWith = (...urls: string[]) => JSON.stringify({ packages: Object.fromEntries(urls.map((url, at) => [`node_modules/p${at}`, { resolved: url }])) }, null, 2)
  const projectLocked = (...urls: string[]) => folderWith({ 'package.json': '{}', 'package-lock.json': lockWith(...urls) })
  const mirrorConfig = { npm: { mirrors: ['https://mirror.test/npm/'] } }
  it('names lockfile URLs on a private host, which every attempt still contacts', () => {
    const plan = planIn(npm, 'ci', projectLocked('https://npm.corp.test/a/-/a-1.0.0.tgz', 'https://registry.npmjs.org/b/-/b-1.0.0.tgz'), mirrorConfig)
    expect(plan.lockedSources).toMatch(/^package-lock\.json pins 1 package to npm\.corp\.test: npm downloads them from there/)
    expect(plan.attempts.map(attempt => attempt.hosts.map(host => `${host.host} ${host.role}`))).toEqual([['registry.npmjs.org index', 'npm.corp.test lockfile'], ['mirror.test index', 'npm.corp.test lockfile']])
    expect(plan.attempts[1]!.command.argv).not.toContainEqual(expect.stringMatching(/replace-registry-host/))
  })
  it('says nothing about a lockfile on registry.npmjs.org (npm sends those URLs to the attempt\'s registry)', () => {
    const plan = planIn(npm, 'ci', projectLocked('https://registry.npmjs.org/b/-/b-1.0.0.tgz'), mirrorConfig)
    expect(plan.lockedSources).toBeUndefined()
    expect(plan.attempts.map(attempt => attempt.hosts.map(host => host.host))).toEqual([['registry.npmjs.org'], ['mirror.test']])
  })
  it('points a lockfile pinned to a replaceable registry at the mirror with --replace-registry-host', () => {
    const config = { npm: { index: 'https://npm.company.test/', mirrors: ['https://mirror.test/npm/'] } }
    const plan = planIn(npm, 'ci', projectLocked('https://npm.company.test/a/-/a-1.0.0.tgz'), config)
    expect(plan.attempts[1]!.command.argv).toContain('--replace-registry-host=npm.company.test')
    expect(plan.attempts[1]!.hosts.map(host => host.host)).toEqual(['mirror.test'])
    expect(plan.attempts[0]!.command.argv.join(' ')).not.toMatch(/replace-registry-host/)
  })
  it('uses `always` when every pinned host may be replaced and one flag cannot name them all', () => {
    const config = { npm: { index: 'https://npm.company.test/', mirrors: ['https://mirror.test/npm/'] } }
    const plan = planIn(npm, 'ci', projectLocked('https://npm.company.test/a/-/a-1.0.0.tgz', 'https://registry.npmjs.org/b/-/b-1.0.0.tgz'), config)
    expect(plan.attempts[1]!.command.argv).toContain('--replace-registry-host=always')
  })
  // npm matches --replace-registry-host against the host name of every resolved URL (npm 11: ports ignored, and a
  // URL's path narrows it only when it is not `/`): a private registry with that host name would follow the mirror.
  it.each([
    ['another path', 'https://corp.test/public/', 'https://corp.test/private/@corp/b/-/b-1.0.0.tgz'],
    ['another port', 'https://corp.test/', 'https://corp.test:8443/@corp/b/-/b-1.0.0.tgz'],
    ['below the public root', 'https://corp.test/', 'https://corp.test/private/@corp/b/-/b-1.0.0.tgz'],
  ])('no host-wide redirect when a private registry in the lockfile shares the host name (%s), and says so', (_, index, privateUrl) => {
    const config = { npm: { index, mirrors: ['https://mirror.test/npm/'] } }
    const plan = planIn(npm, 'ci', projectLocked(`${index}a/-/a-1.0.0.tgz`, privateUrl), config)
    expect(plan.attempts[1]!.command.argv.join(' ')).not.toMatch(/replace-registry-host/)
    expect(plan.attempts[1]!.hosts.map(host => `${host.host} ${host.role}`)).toEqual(['mirror.test index', expect.stringMatching(/^corp\.test(:8443)? lockfile$/), expect.stringMatching(/^corp\.test(:8443)? lockfile$/)])
    expect(plan.lockedSources).toMatch(/shares its host name with your private registry .*--replace-registry-host matches host names: it is not redirected/)
    expect(plan.attempts[1]!.reason).toMatch(/not redirected/)
  })
  it('a scope registry in .npmrc counts too: no redirect on its host name, and never `always`', () => {
    const config = { npm: { index: 'https://corp.test/public/', mirrors: ['https://mirror.test/npm/'] } }
    const sameHost = folderWith({ 'package.json': '{}', '.npmrc': '@acme:registry=https://corp.test:4873/\n', 'package-lock.json': lockWith('https://corp.test/public/a/-/a-1.0.0.tgz') })
    expect(planIn(npm, 'ci', sameHost, config).attempts[1]!.command.argv.join(' ')).not.toMatch(/replace-registry-host/)
    const otherHost = folderWith({ 'package.json': '{}', '.npmrc': '@acme:registry=https://npm.acme.test/\n', 'package-lock.json': lockWith('https://corp.test/public/a/-/a-1.0.0.tgz', 'https://registry.npmjs.org/b/-/b-1.0.0.tgz') })
    expect(planIn(npm, 'ci', otherHost, config).attempts[1]!.command.argv).toContain('--replace-registry-host=corp.test')
    expect(planIn(npm, 'ci', otherHost, config, { env: { 'npm_config_@acme:registry': 'https://corp.test:4873/' } }).attempts[1]!.command.argv.join(' ')).not.toMatch(/replace-registry-host/)
  })
  it('addresses scoped packuments with an escaped slash', () => expect(npm.packageUrl!('https://r.test', '@types/node')).toBe('https://r.test/@types%2fnode'))
})

describe('npm: npx, exec, create and init <initializer> fetch a package and run its program once', () => {
  const args = (line: string) => line.split(' ').filter(Boolean)
  it.each(['exec x', 'x cowsay', 'exec --yes -- x --flag', 'create vite my-app', 'init vite', 'innit @scope', '-w web exec tsc'])(
    'npm %s is a network command that runs a program', line => {
      expect(npm.classify(args(line))).toBe('network')
      expect(npm.program?.runs(args(line))).toBe(true)
    })
  it.each(['install x', 'ci', 'init', 'init -y', 'run build'])('npm %s runs no fetched program', line => expect(npm.program?.runs(args(line))).toBe(false))
  // After the package's name they would be the program's arguments; right after `npm` they are npm's own.
  it('puts npm exec\'s registry option before the verb', _('npm exec --yes -- x --registry=mine', `npm --registry=${M} --no-audit exec --yes -- x --registry=mine`))
  it('puts it before the verb without a -- too', _('npm exec -y cowsay hi there', `npm --registry=${M} --no-audit exec -y cowsay hi there`))
  it('and before `init <initializer>`', _('npm init vite my-app', `npm --registry=${M} --no-audit init vite my-app`))
  it('a fetch for a program is watched like an install: no knob of the person\'s is taken for set', () => {
    expect(findUserKnobs(npm, contextIn(folderWith(), 'exec --yes -- x'))).toMatchObject({ userSet: false })
    expect(findUserKnobs(npm, contextIn(folderWith(), 'exec --yes --fetch-timeout=9 -- x'))).toMatchObject({ userSet: true })
    expect(findUserKnobs(npm, contextIn(folderWith(), 'install x'))).toMatchObject({ userSet: false })
  })

  const npx = npm.forExecutable!('npx')!
  it('npx is npm with the registry in its environment: what follows the package name is the program\'s', () => {
    expect(rewrite(npx, 'npx create-vite my-app --template react', M)).toBe(`npm_config_registry=${M} NPM_CONFIG_REGISTRY=${M} npm_config_audit=false npx create-vite my-app --template react`)
    expect(rewrite(npx, 'npx --yes --package hello -- hello a', 'https://registry.npmjs.org/')).toBe('npm_config_registry=https://registry.npmjs.org/ NPM_CONFIG_REGISTRY=https://registry.npmjs.org/ npx --yes --package hello -- hello a')
  })
  it('npx: a network command except --version, --help and --offline; nothing read-only, no knobs', () => {
    expect(npx.classify(args('create-vite'))).toBe('network')
    expect(npx.classify(args('--yes -p x -- x'))).toBe('network')
    for (const line of ['', '--version', '-h', '--offline x']) expect(npx.classify(args(line))).toBe('local')
    expect(npx.readOnly).toBeUndefined()
    expect(npx.knobs).toBeUndefined()
    expect(npm.forExecutable!('npm')).toBeUndefined()
  })
  it('npx: a --registry typed on its line means no mirror (it beats the variable)', () => {
    expect(npx.noMirrorReason?.(contextIn(folderWith(), '--registry=https://registry.npmjs.org/ create-x'))).toMatch(/beats the variable/)
    expect(npx.noMirrorReason?.(contextIn(folderWith(), 'create-x'))).toBeUndefined()
  })
  it('tells npm\'s own fetch error from the program\'s output', () => {
    expect(npm.program!.fetchFailed('npm error code E503\nnpm error 503 Service Unavailable - GET http://r/x\nnpm error A complete log of this run can be found in: /h/.npm/_logs/x.log\n')).toBe(true)
    expect(npm.program!.fetchFailed('npm ERR! code ETIMEDOUT\nnpm ERR!     /h/.npm/_logs/x-debug-0.log\n')).toBe(true)
    expect(npm.program!.fetchFailed('npm error code E503\nthe program printed this last\n')).toBe(false)
  })
})
