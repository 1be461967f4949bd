import { findUserKnobs } from '../../../src/tools/knobs.js'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configSchema } from '../../../src/config/schema.js'
import { planSources } from '../../helpers/plan-helpers.js'
import { pipx } from '../../../src/tools/pipx.js'
import { contextIn, folderWith, rewrite } from '../../helpers/tool-cases.js'

const M = 'https://mirror.test/simple'
const ENV = `PIP_INDEX_URL=${M} UV_INDEX_URL=${M}`
const _ = (line: string, expected: string, options: { bypassCache?: boolean } = {}) => () => expect(rewrite(pipx, line, M, options)).toBe(expected)

describe('pipx: rewriting', () => {
  it('sets the index for pip and uv by environment', _('pipx install black', `${ENV} pipx install black`))
  it('handles upgrade', _('pipx upgrade black', `${ENV} pipx upgrade black`))
  it('handles run', _('pipx run cowsay -t hi', `${ENV} pipx run cowsay -t hi`))
  it('never touches pip\'s or uv\'s timeouts', _('pipx install black', `${ENV} pipx install black`))
  it('bypasses both caches', _('pipx install black', `${ENV} PIP_NO_CACHE_DIR=1 UV_NO_CACHE=1 pipx install black`, { bypassCache: true }))
  it('leaves list alone', _('pipx list', 'pipx list'))
  it('leaves runpip alone', _('pipx runpip black install x', 'pipx runpip black install x'))
})

describe('pipx: classify', () => {
  const classify = (args: string) => pipx.classify(args.split(' ').filter(Boolean))
  it.each(['install x', 'install-all spec.json', 'inject black x', 'upgrade x', 'upgrade-all', 'upgrade-shared', 'reinstall x', 'reinstall-all', 'run x', 'run app --help', '--verbose install x', 'list --outdated'])(
    '%s is network', args => expect(classify(args)).toBe('network'))
  it.each(['', 'list', 'uninstall x', 'ensurepath', 'environment', 'runpip x list', 'pin x', 'install --help', '--version'])(
    '"%s" is local', args => expect(classify(args)).toBe('local'))
})

describe('pipx: the user index choice', () => {
  const index = (args: string, env: NodeJS.ProcessEnv = {}, home?: string) => pipx.findUserIndex(contextIn(folderWith({}), args, env, home))
  it.each([
    ['install --index-url https://a.test/simple x', 'https://a.test/simple', '--index-url'],
    ['install -i https://a.test/simple x', 'https://a.test/simple', '-i'],
    ['install --index https://a.test/simple x', 'https://a.test/simple', '--index-url'],
    ['install --ind=https://a.test/simple x', 'https://a.test/simple', '--index-url'],
    ['install --pip-args=--index-url=https://a.test/simple x', 'https://a.test/simple', '--pip-args'],
    ['install --pip-args=--no-index x', 'none', '--pip-args'],
  ])('%s', (args, url, origin) => expect(index(args)).toEqual({ url, origin }))
  it('splits --pip-args like a shell', () => expect(pipx.findUserIndex({ args: ['install', '--pip-args', "--pre -i 'https://q.test/simple'", 'x'], env: {}, cwd: '/', home: folderWith() })?.url).toBe('https://q.test/simple'))
  it('does not read the options of the app pipx runs', () => expect(index('run app --index-url https://app.test/simple')).toBeNull())
  it('reads PIP_INDEX_URL, UV_INDEX_URL and pip.conf', () => {
    expect(index('install x', { PIP_INDEX_URL: 'https://p.test/simple' })?.origin).toBe('PIP_INDEX_URL')
    expect(index('install x', { UV_INDEX_URL: 'https://u.test/simple' })?.origin).toBe('UV_INDEX_URL')
    const home = folderWith({ '.config/pip/pip.conf': '[global]\nindex-url = https://conf.test/simple\n' })
    expect(index('install x', {}, home)?.url).toBe('https://conf.test/simple')
  })
  it('reads the index stored in pipx_metadata.json for upgrade', () => {
    const metadata = JSON.stringify({ main_package: { package: 'black', pip_args: ['--index-url', 'https://stored.test/simple'] } })
    const home = folderWith({ '.local/share/pipx/venvs/black/pipx_metadata.json': metadata })
    expect(index('upgrade black', {}, home)).toEqual({ url: 'https://stored.test/simple', origin: `${join(home, '.local/share/pipx/venvs/black/pipx_metadata.json')} pip_args` })
    expect(index('upgrade-all', {}, home)?.url).toBe('https://stored.test/simple')
    const legacy = folderWith({ 'venvs/black/pipx_metadata.json': metadata })
    expect(index('reinstall black', { PIPX_HOME: legacy })?.url).toBe('https://stored.test/simple')
  })
  it('says no mirror can replace an index given on the command line', () => {
    expect(pipx.noMirrorReason(contextIn(folderWith({}), 'install -i https://pypi.org/simple x'))).toMatch(/pipx_metadata\.json/)
    expect(pipx.noMirrorReason(contextIn(folderWith({}), 'install x', { PIP_INDEX_URL: 'https://pypi.org/simple' }))).toBeUndefined()
  })
  it('never replaces a private index', () => {
    const context = contextIn(folderWith({}), 'install x', { PIP_INDEX_URL: 'https://pypi.corp.example/simple' })
    const plan = planSources({ adapter: pipx, config: configSchema.parse({}), userIndex: pipx.findUserIndex(context), context })
    expect(plan.fallbacks).toEqual([])
    expect(plan.primary.kind).toBe('private')
  })
})

describe('pipx: timeouts', () => {
  const knobs = (env: NodeJS.ProcessEnv = {}, home?: string) => findUserKnobs(pipx, contextIn(folderWith({}), 'install x', env, home))
  it('respects pip and uv variables', () => {
    expect(knobs({ PIP_DEFAULT_TIMEOUT: '60' }).origin).toBe('PIP_DEFAULT_TIMEOUT')
    expect(knobs({ UV_HTTP_TIMEOUT: '60' }).origin).toBe('UV_HTTP_TIMEOUT')
  })
  it('respects pip.conf', () => expect(knobs({}, folderWith({ '.config/pip/pip.conf': '[global]\ntimeout = 60\n' })).userSet).toBe(true))
})
