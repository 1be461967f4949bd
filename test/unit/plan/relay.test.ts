import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { withRelay, type RelayRequest } from '../../../src/plan/relay.js'
import { relayBookings } from '../../../src/state/booking.js'
import { cargo } from '../../../src/tools/cargo.js'
import { go } from '../../../src/tools/go.js'
import { conda } from '../../../src/tools/conda.js'
import { micromamba } from '../../../src/tools/micromamba.js'
import { npm } from '../../../src/tools/npm.js'
import { pip } from '../../../src/tools/pip.js'
import { pnpm } from '../../../src/tools/pnpm.js'
import { bun } from '../../../src/tools/bun.js'
import { yarnBerry } from '../../../src/tools/yarn-berry.js'
import { yarn } from '../../../src/tools/yarn.js'
import type { ToolAdapter } from '../../../src/tools/types.js'
import { planIn } from '../../helpers/plan-helpers.js'

const cwd = mkdtempSync(join(tmpdir(), 'resilient-relay-plan-'))
const request = (extra: Partial<RelayRequest> = {}): RelayRequest => ({ enabled: true, address: () => ({ host: '127.9.8.7', port: 21_000, secret: 's'.repeat(43) }), trust: { unverified: [] }, secrets: { scratch: { path: cwd }, env: {} }, ...extra })
// npm's own script and the node beside it on PATH: npm's config files are known, so the plan is certain.
const NPM_FOUND = { env: { PATH: process.env.PATH } }
const MIRRORS = { pypi: { mirrors: ['tuna', 'https://pypi.corp-mirror.example/simple'] } }

describe('which attempt goes through the relay', () => {
  it('the first, with every source of the plan behind it in order, each with where its files are', () => {
    const plan = withRelay(planIn(pip, 'install torch', cwd, MIRRORS), request())
    expect(plan.attempts[0]!.via).toBe('relay')
    expect(plan.attempts.slice(1).map(attempt => attempt.via)).toEqual([undefined, undefined])
    expect(plan.relay!.sources.map(({ id, files }) => [id, files])).toEqual([
      ['pypi.org', 'https://files.pythonhosted.org/'], ['tuna', 'https://pypi.tuna.tsinghua.edu.cn/'], ['pypi.corp-mirror.example', 'https://pypi.corp-mirror.example/']])
    // The secret goes by a netrc, never on argv; pip trusts the relay so that its HTTP cache keeps the answers.
    const { argv, env, files } = plan.attempts[0]!.command
    expect(argv.join(' ')).toBe('pip install torch --index-url http://127.9.8.7:21000/simple/ --trusted-host 127.9.8.7:21000')
    expect(Object.keys(env)).toEqual(['NETRC'])
    expect(files![0]!.content).toContain(`machine 127.9.8.7 login resilient password ${'s'.repeat(43)}`)
    expect(plan.relay!.replaced.command.argv).toEqual(['pip', 'install', 'torch'])
  })

  it('npm: the registry is the relay; npm\'s own replace-registry-host (registry.npmjs.org) sends the index\'s tarball URLs to it (the lockfile keeps them)', () => {
    const plan = withRelay(planIn(npm, 'install left-pad', cwd, {}, NPM_FOUND), request())
    expect(plan.attempts[0]!.command.argv.slice(3)).toEqual(['--registry=http://127.9.8.7:21000/'])
    expect(plan.attempts[0]!.command.argv.join(' ')).not.toMatch(/no-audit/)
  })

  it('npm: another index\'s tarball URLs need `always` beside npm\'s default, only with no other registry pinned or scoped; npm\'s own setting is kept', () => {
    const config = { npm: { index: 'https://npm.corp-proxy.example/', mirrors: ['npmmirror'] } }
    const alone = withRelay(planIn(npm, 'install left-pad', cwd, config, NPM_FOUND), request())
    expect(alone.attempts[0]!.command.argv).toContain('--replace-registry-host=always')
    const scoped = withRelay(planIn(npm, 'install left-pad', cwd, config, NPM_FOUND), request({ trust: { unverified: [], otherRegistries: ['https://npm.corp.example/'] } }))
    expect(scoped.attempts[0]!.command.argv.join(' ')).not.toMatch(/replace-registry-host/)
    const own = withRelay(planIn(npm, 'install left-pad', cwd, config, NPM_FOUND), request({ trust: { unverified: [], fileRouting: 'never' } }))
    expect(own.attempts[0]!.command.argv.join(' ')).not.toMatch(/replace-registry-host/)
  })

  // After the package's name, they would be the program's arguments (npx gives it everything there).
  it.each([
    ['npx -y cowsay hi there', 'npx --registry=http://127.9.8.7:21000/ -y cowsay hi there'],
    ['npm exec -y cowsay hi there', 'npm --registry=http://127.9.8.7:21000/ exec -y cowsay hi there'],
    ['npm init vite my-app', 'npm --registry=http://127.9.8.7:21000/ init vite my-app'],
  ])('npm: for %s, the relay\'s options stand before the program, as npm\'s own', (line, expected) => {
    const [launcher, ...rest] = line.split(' ')
    const adapter = npm.forExecutable?.(launcher!) ?? npm
    const plan = withRelay(planIn(adapter, rest.join(' '), cwd, {}, { ...NPM_FOUND, launcher: [launcher!] }), request())
    expect(plan.attempts[0]!.command.argv.join(' ')).toBe(expected)
  })

  it('npm: tarball URLs stay the index\'s own when a mirror is ranked first (an open breaker), as the lockfile records them', () => {
    const planned = planIn(npm, 'install left-pad', cwd, {}, NPM_FOUND)
    const ranked = { ...planned, attempts: [planned.attempts[1]!, planned.attempts[0]!, ...planned.attempts.slice(2)] }
    const plan = withRelay(ranked, request())
    expect(plan.relay!.sources[0]!.id).toBe('npmmirror')
    expect(plan.relay!.index).toBe('https://registry.npmjs.org/')
    expect(plan.attempts[0]!.command.argv.join(' ')).not.toMatch(/replace-registry-host/)
  })

  it('npm: never when a scope\'s registry is on the index\'s host name (npm would send its downloads to the relay too)', () => {
    const plan = planIn(npm, 'install x', cwd, {}, NPM_FOUND)
    const shared = withRelay(plan, request({ trust: { unverified: [], otherRegistries: ['https://registry.npmjs.org/corp-private/'] } }))
    expect(shared.relay).toBeUndefined()
    expect(shared.noRelayReason).toBe('npm sends every download on registry.npmjs.org to the relay, and another registry it uses is there too (registry.npmjs.org)')
    expect(withRelay(plan, request({ trust: { unverified: [], otherRegistries: ['https://npm.pkg.github.com/', 'https://registry.npmjs.org/'] } })).relay).toBeDefined()
  })

  it('never for conda, mamba or micromamba: each records the channel URL it downloads from, and says so', () => {
    expect(withRelay(planIn(conda, 'install numpy', cwd), request()).noRelayReason).toMatch(/^conda records the URL of the channel it downloads from in conda-meta/)
    expect(withRelay(planIn(micromamba, 'install numpy', cwd), request()).noRelayReason).toMatch(/^libmamba records .* a mirrored channel's first mirror included/)
    expect(withRelay(planIn(conda, 'list', cwd), request()).noRelayReason).toBeUndefined()
  })

  it('never for a private index, a verb that writes URLs, TLS the tool does not check, or when turned off', () => {
    const none = (plan: ReturnType<typeof planIn>, extra?: Partial<RelayRequest>) => withRelay(plan, request(extra))
    expect(none(planIn(pip, 'install --index-url https://pypi.corp.example/simple x', cwd)).noRelayReason).toMatch(/not a public index/)
    expect(none(planIn(pip, 'install --report r.json x', cwd)).noRelayReason).toMatch(/--report/)
    expect(none(planIn(pip, 'install x', cwd), { trust: { unverified: ['pypi.org'] } }).noRelayReason).toMatch(/does not verify TLS for pypi\.org/)
    expect(none(planIn(npm, 'install x', cwd, {}, NPM_FOUND), { trust: { unverified: ['*'] } }).relay).toBeUndefined()
    expect(none(planIn(pip, 'install x', cwd), { enabled: false }).noRelayReason).toMatch(/turned off/)
    expect(none(planIn(pip, 'list', cwd)).noRelayReason).toBeUndefined()
    // Pointing the tool at the relay would override an index choice resilient is not sure of (here: no node on PATH,
    // so npm's global npmrc is unknown); the restart loop asks the tool at failure time instead.
    expect(none(planIn(npm, 'install x', cwd)).noRelayReason).toMatch(/global config file is unknown, so the tool keeps its own index choice/)
  })

  it('behind a proxy, the tool reaches the relay directly: the relay\'s host added to its no-proxy list; never with pip\'s own --proxy', () => {
    const behind = (adapter: ToolAdapter, args: string, env: NodeJS.ProcessEnv) =>
      withRelay(planIn(adapter, args, cwd, {}, NPM_FOUND), request({ trust: adapter.relay!.trust({ args: args.split(' '), env: { PIP_CONFIG_FILE: '/dev/null', ...env }, cwd, home: cwd }) }))
    expect(behind(pip, 'install x', { HTTPS_PROXY: 'http://proxy:3128', no_proxy: 'corp.example' }).attempts[0]!.command.env).toMatchObject({ no_proxy: 'corp.example,127.9.8.7', NO_PROXY: 'corp.example,127.9.8.7' })
    expect(behind(pip, 'install x', {}).attempts[0]!.command.env).not.toHaveProperty('NO_PROXY')
    expect(behind(pip, 'install --proxy http://proxy:3128 x', {}).noRelayReason).toMatch(/sends every request to its proxy \(--proxy\)/)
    expect(behind(npm, 'install x', { HTTP_PROXY: 'http://proxy:3128' }).attempts[0]!.command.argv).toContain('--noproxy=127.9.8.7')
  })

  it('verifies upstream with the CA bundle the tool names', () => {
    const plan = withRelay(planIn(pip, 'install x', cwd), request({ trust: { ca: { path: '/etc/corp-ca.pem', origin: 'PIP_CERT' }, unverified: [] } }))
    expect(plan.relay!.ca).toBe('/etc/corp-ca.pem')
  })

  it('pnpm: --registry is the relay, its secret in an npmrc named by npm_config_userconfig (pnpm ≤10) and pnpm_config_npmrc_auth_file (11+); packuments point tarballs at the relay (pnpm-lock.yaml records none)', () => {
    const plan = withRelay(planIn(pnpm, 'add left-pad', cwd), request())
    const { argv, env, files } = plan.attempts[0]!.command
    expect(argv).toEqual(['pnpm', 'add', 'left-pad', '--registry=http://127.9.8.7:21000/'])
    expect(Object.keys(env)).toEqual(['npm_config_userconfig', 'pnpm_config_npmrc_auth_file'])
    expect(env.pnpm_config_npmrc_auth_file).toBe(files![0]!.path)
    expect(files![0]!.content).toContain('//127.9.8.7:21000/:_auth=')
    expect(plan.relay!.tarballs).toBe('relay')
  })

  // pnpm 11.29's @pnpm/config reader, getNpmrcAuthFile: --npmrc-auth-file, --userconfig, pnpm_config_npmrc_auth_file,
  // pnpm_config_userconfig, config.yaml's npmrcAuthFile, npm_config_userconfig, else ~/.npmrc (readNpmrcSources).
  it.each([
    ['pnpm_config_userconfig', (own: string) => ({ env: { pnpm_config_userconfig: own, npm_config_userconfig: '/nowhere/npmrc' } })],
    ['pnpm_config_npmrc_auth_file', (own: string) => ({ env: { pnpm_config_npmrc_auth_file: own } })],
    ['npmrcAuthFile in ~/.config/pnpm/config.yaml', (own: string, home: string) => {
      writeFileSync(join(home, '.config', 'pnpm', 'config.yaml'), `npmrcAuthFile: ${own}\n`)
      return { env: { HOME: home } }
    }],
  ])('pnpm 11+: the relay\'s npmrc keeps the settings of the user npmrc pnpm 11 reads, named by %s', (_name, given) => {
    const home = mkdtempSync(join(tmpdir(), 'resilient-pnpm-home-'))
    mkdirSync(join(home, '.config', 'pnpm'), { recursive: true })
    const own = join(home, 'own-npmrc')
    writeFileSync(own, 'strict-peer-dependencies=true\n')
    const secrets = { scratch: { path: cwd }, env: given(own, home).env }
    const plan = withRelay(planIn(pnpm, 'install', cwd), request({ secrets }))
    const file = plan.attempts[0]!.command.files![0]!
    expect(file.content).toMatch(/^strict-peer-dependencies=true\n\/\/127\.9\.8\.7:21000\/:_auth=/)
    expect(plan.attempts[0]!.command.env).toMatchObject({ npm_config_userconfig: file.path, pnpm_config_npmrc_auth_file: file.path })
  })

  it('pnpm: a user npmrc named on the command line (--userconfig, pnpm 11\'s --npmrc-auth-file) keeps the relay away: no variable overrides it', () => {
    for (const flag of ['--userconfig=/home/me/.npmrc-work', '--npmrc-auth-file=/home/me/.npmrc-work']) {
      const trust = pnpm.relay!.trust({ args: ['install', flag], env: {}, cwd, home: cwd })
      expect(trust.keepsAway).toMatch(/reads its user npmrc from the command line \(--(userconfig|npmrc-auth-file)\)/)
    }
  })

  it('pnpm 11+: its own credential variables (pnpm_config_//host/:_authToken, pnpm_config__auth) count as the person\'s credentials', () => {
    const byHost = pnpm.relay!.trust({ args: ['install'], env: { 'pnpm_config_//npm.corp.example/:_authToken': 't' }, cwd, home: cwd })
    expect(byHost.credentials).toMatchObject({ 'npm.corp.example': 'pnpm_config_//npm.corp.example/:_authToken' })
    const json = pnpm.relay!.trust({ args: ['install'], env: { pnpm_config__auth: '{"//npm.corp.example/":{"authToken":"t"}}' }, cwd, home: cwd })
    expect(json.credentials).toMatchObject({ '*': 'pnpm_config__auth' })
  })

  it('pnpm 11+: a token in auth.ini or in the npmrc its pnpm_config_userconfig names counts as the person\'s credentials', () => {
    const home = mkdtempSync(join(tmpdir(), 'resilient-pnpm-home-'))
    mkdirSync(join(home, '.config', 'pnpm'), { recursive: true })
    writeFileSync(join(home, '.config', 'pnpm', 'auth.ini'), '//npm.corp.example/:_authToken=t\n')
    writeFileSync(join(home, 'work-npmrc'), '//npm.work.example/:_authToken=t\n')
    const trust = pnpm.relay!.trust({ args: ['install'], env: { pnpm_config_userconfig: join(home, 'work-npmrc') }, cwd, home })
    expect(Object.keys(trust.credentials ?? {})).toEqual(expect.arrayContaining(['npm.corp.example', 'npm.work.example']))
  })

  it('pnpm dlx and pnpx: the relay through variables (pnpm dlx refuses --registry; after the name it is the program\'s)', () => {
    const dlx = withRelay(planIn(pnpm, 'dlx cowsay hi', cwd), request())
    expect(dlx.attempts[0]!.command.argv).toEqual(['pnpm', 'dlx', 'cowsay', 'hi'])
    expect(dlx.attempts[0]!.command.env).toMatchObject({ npm_config_registry: 'http://127.9.8.7:21000/', pnpm_config_registry: 'http://127.9.8.7:21000/' })
    const pnpx = pnpm.forExecutable!('pnpx')!
    const plan = withRelay(planIn(pnpx, 'cowsay hi', cwd, {}, { launcher: ['pnpx'] }), request())
    expect(plan.attempts[0]!.command.argv).toEqual(['pnpx', 'cowsay', 'hi'])
    expect(plan.attempts[0]!.command.env).toMatchObject({ npm_config_registry: 'http://127.9.8.7:21000/' })
  })

  it('pnpm: not with lockfile-include-tarball-url, which would write the relay\'s address into pnpm-lock.yaml', () => {
    const trust = pnpm.relay!.trust({ args: ['install', '--lockfile-include-tarball-url'], env: {}, cwd, home: cwd })
    const plan = withRelay(planIn(pnpm, 'install --lockfile-include-tarball-url', cwd), request({ trust }))
    expect(plan.relay).toBeUndefined()
    expect(plan.noRelayReason).toMatch(/lockfile-include-tarball-url/)
    expect(pnpm.relay!.trust({ args: ['install', '--lockfile-include-tarball-url=false'], env: {}, cwd, home: cwd }).keepsAway).toBeUndefined()
  })

  it('bun: --registry is the relay, its secret in NPM_CONFIG_TOKEN (sent to the default registry alone); packuments keep the index\'s tarball URLs, which bun.lock records', () => {
    const plan = withRelay(planIn(bun, 'install', cwd), request())
    expect(plan.attempts[0]!.command.argv).toEqual(['bun', 'install', '--registry=http://127.9.8.7:21000/'])
    expect(plan.attempts[0]!.command.env).toEqual({ NPM_CONFIG_TOKEN: 's'.repeat(43) })
    expect(plan.relay!.tarballs).toBe('index')
    const bunx = bun.forExecutable!('bunx')!
    const x = withRelay(planIn(bunx, 'cowsay hi', cwd, {}, { launcher: ['bunx'] }), request())
    expect(x.attempts[0]!.command.argv).toEqual(['bunx', 'cowsay', 'hi'])
    expect(x.attempts[0]!.command.env).toEqual({ BUN_CONFIG_REGISTRY: 'http://127.9.8.7:21000/', NPM_CONFIG_TOKEN: 's'.repeat(43) })
  })

  it('bun: a token of the person\'s own for its default registry keeps the relay away', () => {
    const context = { args: ['install'], env: { NPM_CONFIG_TOKEN: 'own' }, cwd, home: cwd }
    expect(bun.relay!.trust(context).credentials).toMatchObject({ '*': 'NPM_CONFIG_TOKEN' })
    const plan = withRelay(planIn(bun, 'install', cwd), request({ trust: bun.relay!.trust(context) }))
    expect(plan.noRelayReason).toMatch(/sends credentials to registry\.npmjs\.org \(NPM_CONFIG_TOKEN\)/)
  })

  it('yarn berry: YARN_NPM_REGISTRY_SERVER is the relay, its secret a top-level npmAuthIdent sent always; packuments point tarballs at the relay', () => {
    const plan = withRelay(planIn(yarnBerry, 'install', cwd), request())
    expect(plan.attempts[0]!.command.argv).toEqual(['yarn-berry', 'install'])
    expect(plan.attempts[0]!.command.env).toEqual({ YARN_NPM_REGISTRY_SERVER: 'http://127.9.8.7:21000', YARN_UNSAFE_HTTP_WHITELIST: '127.9.8.7',
      YARN_NPM_AUTH_IDENT: `resilient:${'s'.repeat(43)}`, YARN_NPM_ALWAYS_AUTH: 'true' })
    expect(plan.relay!.tarballs).toBe('relay')
  })

  it('yarn berry: npmScopes of its own keep the relay away (the top-level ident would reach their registries), and so does a token', () => {
    const dir = mkdtempSync(join(tmpdir(), 'resilient-berry-'))
    writeFileSync(join(dir, '.yarnrc.yml'), 'npmScopes:\n  corp:\n    npmRegistryServer: "https://npm.corp.example"\n')
    const scoped = yarnBerry.relay!.trust({ args: ['install'], env: {}, cwd: dir, home: dir })
    expect(withRelay(planIn(yarnBerry, 'install', dir), request({ trust: scoped })).noRelayReason).toMatch(/has npmScopes of its own/)
    expect(yarnBerry.relay!.trust({ args: ['install'], env: { YARN_NPM_AUTH_TOKEN: 't' }, cwd, home: cwd }).credentials).toEqual({ '*': 'a token in YARN_NPM_AUTH_TOKEN' })
    expect(yarnBerry.relay!.readTimeoutMs({ args: ['install'], env: {}, cwd, home: cwd })).toBe(60_000)
  })

  it('yarn 1: --registry is the relay, its secret npm_config__auth with always-auth; packuments keep the index\'s URLs, which yarn.lock records', () => {
    const plan = withRelay(planIn(yarn, 'install', cwd), request())
    expect(plan.attempts[0]!.command.argv).toEqual(['yarn', 'install', '--registry', 'http://127.9.8.7:21000/'])
    expect(plan.attempts[0]!.command.env).toEqual({ npm_config__auth: Buffer.from(`resilient:${'s'.repeat(43)}`).toString('base64'), npm_config_always_auth: 'true' })
    expect(plan.relay!.tarballs).toBe('index')
  })

  it('yarn 1: a scope registry of its own keeps the relay away (yarn 1 would send it the relay\'s _auth); its network-timeout bounds the page silence', () => {
    const trust = yarn.relay!.trust({ args: ['install'], env: { 'npm_config_@corp:registry': 'https://npm.corp.example/' }, cwd, home: cwd })
    expect(withRelay(planIn(yarn, 'install', cwd), request({ trust })).noRelayReason).toMatch(/scope registry of its own \(https:\/\/npm\.corp\.example\/\)/)
    expect(yarn.relay!.readTimeoutMs({ args: ['install'], env: {}, cwd, home: cwd })).toBe(30_000)
    expect(yarn.relay!.readTimeoutMs({ args: ['install', '--network-timeout', '9000'], env: {}, cwd, home: cwd })).toBe(9000)
  })

  it('pnpm: a scope registry of the person\'s own beside the index keeps every page on the index (pnpm sends the scope there alone)', () => {
    const plan = withRelay(planIn(pnpm, 'add left-pad', cwd, {}, { env: { 'npm_config_@corp:registry': 'https://npm.corp.example/' } }), request())
    expect(plan.relay!.pages.failover).toBe(false)
    expect(withRelay(planIn(pnpm, 'add left-pad', cwd), request()).relay!.pages.failover).toBe(true)
  })

  it('bun: a scope registry in bunfig.toml beside the index keeps every page on the index', () => {
    const dir = mkdtempSync(join(tmpdir(), 'resilient-bun-'))
    writeFileSync(join(dir, 'bunfig.toml'), '[install.scopes]\n"@corp" = { url = "https://npm.corp.example/", token = "$CORP_TOKEN" }\n')
    expect(withRelay(planIn(bun, 'install', dir), request()).relay!.pages.failover).toBe(false)
  })

  it('pnpm: its own fetch-timeout (one minute by default) bounds the page silence', () => {
    expect(pnpm.relay!.readTimeoutMs({ args: ['install'], env: {}, cwd, home: cwd })).toBe(60_000)
    expect(pnpm.relay!.readTimeoutMs({ args: ['install'], env: { npm_config_fetch_timeout: '4000' }, cwd, home: cwd })).toBe(4000)
  })
})

describe('pip\'s and npm\'s TLS trust, as the relay must copy it', () => {
  const context = (args: string[], env: NodeJS.ProcessEnv = {}) => ({ args, env: { PIP_CONFIG_FILE: '/dev/null', ...env }, cwd, home: cwd })
  it('pip: --cert before PIP_CERT before REQUESTS_CA_BUNDLE; --trusted-host and PIP_TRUSTED_HOST turn checks off', () => {
    expect(pip.relay!.trust(context(['install', '--cert', '/a.pem', 'x'], { PIP_CERT: '/b.pem' })).ca?.path).toBe('/a.pem')
    expect(pip.relay!.trust(context(['install', 'x'], { PIP_CERT: '/b.pem', REQUESTS_CA_BUNDLE: '/c.pem' })).ca?.path).toBe('/b.pem')
    expect(pip.relay!.trust(context(['install', 'x'], { REQUESTS_CA_BUNDLE: '/c.pem' })).ca?.path).toBe('/c.pem')
    expect(pip.relay!.trust(context(['install', '--trusted-host', 'pypi.org', 'x'], { PIP_TRUSTED_HOST: 'a.example b.example' })).unverified).toEqual(['pypi.org', 'a.example', 'b.example'])
  })

  it('pip: the machines of its netrc get credentials from pip itself, which the relay would not carry', () => {
    const home = mkdtempSync(join(tmpdir(), 'resilient-netrc-'))
    writeFileSync(join(home, '.netrc'), 'machine pypi.corp-mirror.example login me password secret\n')
    const trust = pip.relay!.trust({ args: ['install', 'x'], env: { PIP_CONFIG_FILE: '/dev/null' }, cwd, home })
    expect(trust.credentials).toEqual({ 'pypi.corp-mirror.example': join(home, '.netrc') })
    expect(withRelay(planIn(pip, 'install x', cwd, MIRRORS), request({ trust })).noRelayReason).toMatch(/pip sends credentials to pypi\.corp-mirror\.example/)
  })

  it('npm: a CI token for registry.npmjs.org keeps the relay out (private scoped packages there need it)', () => {
    const trust = npm.relay!.trust(context(['install'], { 'npm_config_//registry.npmjs.org/:_authToken': 'npm_x' }))
    expect(trust.credentials).toEqual({ 'registry.npmjs.org': '//registry.npmjs.org/:_authToken in npm_config_//registry.npmjs.org/:_authToken' })
    expect(withRelay(planIn(npm, 'install x', cwd, {}, NPM_FOUND), request({ trust })).relay).toBeUndefined()
  })

  it('npm: --cafile, npm_config_cafile; strict-ssl=false checks nothing', () => {
    expect(npm.relay!.trust(context(['install', '--cafile=/a.pem'])).ca?.path).toBe('/a.pem')
    expect(npm.relay!.trust(context(['install'], { NPM_CONFIG_CAFILE: '/b.pem' })).ca?.path).toBe('/b.pem')
    expect(npm.relay!.trust(context(['install', '--strict-ssl=false'])).unverified).toEqual(['*'])
    expect(npm.relay!.trust(context(['install'])).unverified).toEqual([])
  })
})

describe('booking what each host did behind the relay', () => {
  it('a host that failed is booked with its most frequent cause, one that only served with a success, a missing file not at all', () => {
    expect(relayBookings([
      { key: 'pypi.org/simple', host: 'pypi.org', served: 3, failures: { truncated: 1, 'server-error': 2 } },
      { key: 'tuna', host: 'tuna', served: 2, failures: { 'not-found': 1 } },
      { key: 'idle', host: 'idle', served: 0, failures: {} },
    ])).toEqual([{ key: 'pypi.org/simple', host: 'pypi.org', ok: false, category: 'server_error' }, { key: 'tuna', host: 'tuna', ok: true }])
  })
})

describe('a fix of the person\'s after a relayed attempt', () => {
  it('goes to the index as typed: the relay\'s own requests upstream would not carry a proxy or a token', async () => {
    const { runScripted, diagnosisOf } = await import('../retry/harness.js')
    const plan = withRelay(planIn(pip, 'install torch', cwd, MIRRORS), request())
    const run = await runScripted(plan, [{ diagnosis: diagnosisOf('proxy') }, { exitCode: 0 }], {
      ask: async () => ({ description: 'use the proxy http://good-proxy.example:3128 for this run', env: { HTTPS_PROXY: 'http://good-proxy.example:3128' } }),
    })
    expect(run.result.outcome).toBe('succeeded')
    expect(run.calls.map(call => call.argv.join(' '))).toEqual(['pip install torch --index-url http://127.9.8.7:21000/simple/ --trusted-host 127.9.8.7:21000', 'pip install torch'])
    expect(run.calls[1]!.env.HTTPS_PROXY).toBe('http://good-proxy.example:3128')
  })
})

describe('go through the relay', () => {
  const certificate = () => ({ cert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n', key: 'in memory only' })
  const goPlan = (env: NodeJS.ProcessEnv = {}, extra: Partial<RelayRequest> = {}) =>
    withRelay(planIn(go, 'mod download', cwd, {}, { env }), request({ certificate, secrets: { scratch: { path: cwd }, env }, ...extra }))

  it('GOPROXY names the relay over https in the index\'s place; the secret in a netrc, the certificate one more trusted folder', () => {
    const plan = goPlan({ GOPROXY: 'https://proxy.golang.org|direct' })
    const { argv, env, files } = plan.attempts[0]!.command
    expect(argv).toEqual(['go', 'mod', 'download'])
    expect(env.GOPROXY).toBe('https://127.9.8.7:21000|direct')
    expect(env.SSL_CERT_DIR).toBe(`${cwd}:/etc/ssl/certs:/etc/pki/tls/certs:/system/etc/security/cacerts:/data/misc/keychain/certs-added`)
    expect(files!.find(file => file.path === env.NETRC)!.content).toBe(`machine 127.9.8.7 login resilient password ${'s'.repeat(43)}\n`)
    expect(files!.find(file => file.path.endsWith('.pem'))!.content).toBe(certificate().cert)
    // Checksums stay go's: nothing turns them off.
    expect(Object.keys(env).sort()).toEqual(['GOPROXY', 'NETRC', 'SSL_CERT_DIR'])
    expect(plan.relay!.certificate!.key).toBe('in memory only')
  })

  it('keeps the person\'s SSL_CERT_DIR after the run\'s folder', () => {
    expect(goPlan({ SSL_CERT_DIR: '/opt/certs' }).attempts[0]!.command.env.SSL_CERT_DIR).toBe(`${cwd}:/opt/certs`)
  })

  it('is not relayed without a certificate, to a private GOPROXY, or where go sends credentials of its own', () => {
    expect(withRelay(planIn(go, 'mod download', cwd), request()).noRelayReason).toBe('no certificate for an https relay')
    expect(goPlan({ GOPROXY: 'https://goproxy.corp.example,direct' }).relay).toBeUndefined()
    const netrc = goPlan({}, { trust: { unverified: [], credentials: { 'proxy.golang.org': '/home/me/.netrc' } } })
    expect(netrc.noRelayReason).toMatch(/go sends credentials to proxy\.golang\.org/)
  })
})

describe('cargo through the relay', () => {
  it('crates-io replaced by the relay in a --config file of the run\'s private directory; the token in the environment, never argv', () => {
    const plan = withRelay(planIn(cargo, 'fetch', cwd), request())
    const { argv, env, files } = plan.attempts[0]!.command
    expect(argv).toEqual(['cargo', '--config', join(cwd, 'cargo-relay.toml'), 'fetch'])
    expect(env).toEqual({ CARGO_REGISTRIES_RESILIENT_RELAY_TOKEN: 's'.repeat(43) })
    expect(files![0]!.content).toBe('[source.crates-io]\nreplace-with = "resilient-relay"\n\n[registries.resilient-relay]\nindex = "sparse+http://127.9.8.7:21000/"\ncredential-provider = "cargo:token"\n')
  })
  it('not with another registry named on the command line', () => {
    expect(withRelay(planIn(cargo, 'fetch --registry corp', cwd), request()).relay).toBeUndefined()
  })
  // cargo takes the last --config that sets a key: before the person's own, the relay's file would never be read.
  it('a replacement of the person\'s own by a public mirror: the relay\'s file after it, the mirror named by its host', () => {
    const own = '--config source.crates-io.replace-with="own" --config source.own.registry="sparse+https://rsproxy.cn/index/"'
    const plan = withRelay(planIn(cargo, `${own} fetch`, cwd), request())
    expect(plan.attempts[0]!.command.argv).toEqual(['cargo', ...own.split(' '), '--config', join(cwd, 'cargo-relay.toml'), 'fetch'])
    expect(plan.relay!.sources[0]).toMatchObject({ id: 'rsproxy.cn', indexUrl: 'https://rsproxy.cn/index/' })
    // crates.io itself is out of reach while their replacement stands: a crate the mirrors lack is asked of rsproxy again.
    expect(plan.upstream!.source.indexUrl).toBe('https://rsproxy.cn/index/')
  })
  it('a replacement of the person\'s own by a registry resilient does not know: no relay, the command as typed', () => {
    const own = '--config source.crates-io.replace-with="own" --config registries.own.index="sparse+https://crates.corp.test/"'
    const plan = withRelay(planIn(cargo, `${own} fetch`, cwd), request())
    expect(plan.relay).toBeUndefined()
    expect(plan.attempts.map(attempt => attempt.command.argv)).toEqual([['cargo', ...own.split(' '), 'fetch']])
  })
})
