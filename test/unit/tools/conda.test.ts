import { findUserKnobs } from '../../../src/tools/knobs.js'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configSchema } from '../../../src/config/schema.js'
import { planSources } from '../../helpers/plan-helpers.js'
import { conda } from '../../../src/tools/conda.js'
import { contextIn, folderWith, rewrite } from '../../helpers/tool-cases.js'

const M = 'https://mirror.test/anaconda/cloud'
const DEFAULTS = 'CONDA_DEFAULT_CHANNELS=https://mirror.test/anaconda/pkgs/main,https://mirror.test/anaconda/pkgs/r'
const ENV = `CONDA_CHANNEL_ALIAS=${M} ${DEFAULTS}`
const _ = (line: string, expected: string, options: { url?: string } = {}) => () =>
  expect(rewrite(conda, line, options.url ?? M)).toBe(expected)

describe('conda: rewriting', () => {
  it('sets the channel alias and the default channels', _('conda install numpy', `${ENV} conda install numpy`))
  it('sets only the alias on a mirror without defaults', _('conda install numpy', 'CONDA_CHANNEL_ALIAS=https://prefix.test conda install numpy', { url: 'https://prefix.test' }))
  it('never touches timeouts or retries', _('conda install numpy',
    `${ENV} conda install numpy`))
  it('keeps named channels (the alias redirects them)', _('conda create -n e -c conda-forge python=3.12', `${ENV} conda create -n e -c conda-forge python=3.12`))
  it('points channel URLs on conda.anaconda.org at the mirror', _('conda install -c https://conda.anaconda.org/conda-forge numpy',
    `${ENV} conda install -c ${M}/conda-forge numpy`))
  it('handles --channel=URL and -cURL', _('conda install --channel=https://conda.anaconda.org/pytorch -chttps://conda.anaconda.org/nvidia torch',
    `${ENV} conda install --channel=${M}/pytorch -c${M}/nvidia torch`))
  it('handles channel::package specs', _('conda install https://conda.anaconda.org/conda-forge::numpy', `${ENV} conda install ${M}/conda-forge::numpy`))
  it('points repo.anaconda.com at the mirror defaults', _('conda install -c https://repo.anaconda.com/pkgs/main x',
    `${ENV} conda install -c https://mirror.test/anaconda/pkgs/main x`))
  it('points a catalog mirror URL at the mirror of the attempt', _('conda install -c https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud/conda-forge x',
    `${ENV} conda install -c ${M}/conda-forge x`))
  it('keeps a URL already on the mirror of the attempt', _('conda install -c https://prefix.test/conda-forge x',
    'CONDA_CHANNEL_ALIAS=https://prefix.test conda install -c https://prefix.test/conda-forge x', { url: 'https://prefix.test' }))
  it('handles update', _('conda update --all', `${ENV} conda update --all`))
  it('handles env create', _('conda env create -f environment.yml', `${ENV} conda env create -f environment.yml`))
  it('handles env update', _('conda env update -n e', `${ENV} conda env update -n e`))
  it('leaves list alone', _('conda list', 'conda list'))
  it('leaves run alone', _('conda run -n e python -c 1', 'conda run -n e python -c 1'))
  it('leaves --offline alone', _('conda install --offline x', 'conda install --offline x'))
  it('leaves --help alone', _('conda install --help', 'conda install --help'))
  it('leaves env list alone', _('conda env list', 'conda env list'))
})

describe('conda: classify', () => {
  const classify = (args: string) => conda.classify(args.split(' ').filter(Boolean))
  it.each(['install x', 'create -n e x', 'update x', 'upgrade x', 'remove x', 'uninstall x', 'search x', 'env create', 'env update -f e.yml', '--no-plugins install x'])(
    '%s is network', args => expect(classify(args)).toBe('network'))
  it.each(['', 'list', 'info', 'config --show channels', 'clean --all', 'env list', 'env export', 'run -n e x', 'activate e', '--version', 'install --offline x'])(
    '"%s" is local', args => expect(classify(args)).toBe('local'))
})

describe('conda: the user channel choice', () => {
  const project = folderWith({})
  const index = (args: string, env: NodeJS.ProcessEnv = {}, cwd = project, home?: string) => conda.findUserIndex(contextIn(cwd, args, env, home))
  it.each([
    ['install -c https://corp.test/ch x', 'https://corp.test/ch', '-c'],
    ['install -chttps://corp.test/ch x', 'https://corp.test/ch', '-c'],
    ['install --channel https://corp.test/ch x', 'https://corp.test/ch', '--channel'],
    ['install --channel=https://corp.test/ch x', 'https://corp.test/ch', '--channel'],
    ['install --chan https://corp.test/ch x', 'https://corp.test/ch', '--channel'],
    ['install https://corp.test/ch::numpy', 'https://corp.test/ch', 'channel::package'],
    ['install -c ./local-channel x', './local-channel', '-c'],
    ['install -c file:///srv/channel x', 'file:///srv/channel', '-c'],
  ])('%s', (args, url, origin) => expect(index(args)).toEqual({ url, origin }))
  it('does not take a named or public channel for a choice', () => {
    expect(index('install -c conda-forge -c bioconda x')).toBeNull()
    expect(index('install -c https://conda.anaconda.org/conda-forge -c https://repo.anaconda.com/pkgs/main x')).toBeNull()
  })
  it('reads CONDA_CHANNELS and CONDA_CHANNEL_ALIAS', () => {
    expect(index('install x', { CONDA_CHANNELS: 'conda-forge,https://corp.test/ch' })).toEqual({ url: 'https://corp.test/ch', origin: 'CONDA_CHANNELS' })
    expect(index('install x', { CONDA_CHANNEL_ALIAS: 'https://corp.test/conda' })).toEqual({ url: 'https://corp.test/conda', origin: 'CONDA_CHANNEL_ALIAS' })
  })
  it('reads channels, channel_alias, default_channels and custom_channels in ~/.condarc', () => {
    const rc = (text: string) => index('install x', {}, project, folderWith({ '.condarc': text }))
    expect(rc('channels:\n  - conda-forge\n  - https://corp.test/ch\n')?.url).toBe('https://corp.test/ch')
    expect(rc('channel_alias: https://corp.test/conda\n')?.url).toBe('https://corp.test/conda')
    expect(rc('default_channels:\n  - https://corp.test/pkgs/main\n')?.url).toBe('https://corp.test/pkgs/main')
    expect(rc('custom_channels:\n  internal: https://corp.test/conda\n')?.url).toBe('https://corp.test/conda')
  })
  it('reports a private channel before a public mirror the user already uses', () => {
    const home = folderWith({ '.condarc': 'channel_alias: https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud\nchannels: [https://corp.test/ch]\n' })
    expect(index('install x', {}, project, home)?.url).toBe('https://corp.test/ch')
    const mirrorOnly = folderWith({ '.condarc': 'channel_alias: https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud\n' })
    expect(index('install x', {}, project, mirrorOnly)?.url).toBe('https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud')
  })
  it('ignores .condarc channels with --override-channels, but not its alias', () => {
    const home = folderWith({ '.condarc': 'channels: [https://corp.test/ch]\n' })
    expect(index('install --override-channels -c conda-forge x', {}, project, home)).toBeNull()
    const alias = folderWith({ '.condarc': 'channel_alias: https://corp.test/conda\n' })
    expect(index('install --override -c conda-forge x', {}, project, alias)?.url).toBe('https://corp.test/conda')
  })
  it('reads CONDARC, the XDG folder, ~/.conda and the active environment', () => {
    const files = folderWith({ extra: 'channels: [https://a.test/ch]\n', 'xdg/conda/.condarc': 'channels: [https://b.test/ch]\n', 'env/.condarc': 'channels: [https://c.test/ch]\n' })
    expect(index('install x', { CONDARC: join(files, 'extra') })?.url).toBe('https://a.test/ch')
    expect(index('install x', { XDG_CONFIG_HOME: join(files, 'xdg') })?.url).toBe('https://b.test/ch')
    expect(index('install x', { CONDA_PREFIX: join(files, 'env') })?.url).toBe('https://c.test/ch')
    expect(index('install x', {}, project, folderWith({ '.conda/condarc': 'channels: [https://d.test/ch]\n' }))?.url).toBe('https://d.test/ch')
  })
  it('reads the installation .condarc next to CONDA_EXE', () => {
    const root = folderWith({ '.condarc': 'channels: [https://root.test/ch]\n', 'bin/.keep': '' })
    expect(index('install x', { CONDA_EXE: join(root, 'bin', 'conda') })?.url).toBe('https://root.test/ch')
  })
  it('reads the channels of an environment file, and environment.yml for env create', () => {
    const root = folderWith({ 'environment.yml': 'name: e\nchannels:\n  - https://corp.test/ch\ndependencies: [numpy]\n', 'other.yaml': 'channels: [conda-forge]\n' })
    expect(index('env create', {}, root)).toEqual({ url: 'https://corp.test/ch', origin: `${join(root, 'environment.yml')} channels` })
    expect(index('env create -f other.yaml', {}, root)).toBeNull()
  })
})

describe('conda: safety and plans', () => {
  const plan = (args: string, home?: string) => {
    const context = contextIn(folderWith({}), args, {}, home)
    return planSources({ adapter: conda, config: configSchema.parse({}), userIndex: conda.findUserIndex(context), context })
  }
  it('never replaces a private channel', () => {
    const result = plan('install -c https://corp.test/ch x')
    expect(result.fallbacks).toEqual([])
    expect(result.primary.kind).toBe('private')
  })
  it('plans the catalog mirrors for named channels', () => expect(plan('install -c conda-forge x').fallbacks.map(source => source.id)).toContain('tuna'))
  it('keeps a user mirror first and tries the others after it', () => {
    const result = plan('install x', folderWith({ '.condarc': 'channel_alias: https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud\n' }))
    expect(result.primary.label).toBe('mirrors.tuna.tsinghua.edu.cn')
    expect(result.fallbacks.map(source => source.id)).not.toContain('tuna')
  })
  it('uses no mirror for an explicit spec file, which pins URLs', () => {
    const root = folderWith({ 'spec.txt': '# platform: linux-64\n@EXPLICIT\nhttps://conda.anaconda.org/conda-forge/linux-64/x-1-0.conda\n' })
    expect(conda.noMirrorReason(contextIn(root, 'create -n e --file spec.txt'))).toMatch(/spec\.txt pins every package URL/)
    expect(conda.noMirrorReason(contextIn(root, 'create -n e python'))).toBeUndefined()
  })
})

describe('conda: timeouts', () => {
  const knobs = (env: NodeJS.ProcessEnv = {}, home?: string) => findUserKnobs(conda, contextIn(folderWith({}), 'install x', env, home))
  it('respects CONDA_REMOTE_* variables', () => expect(knobs({ CONDA_REMOTE_READ_TIMEOUT_SECS: '120' })).toEqual({ userSet: true, origin: 'CONDA_REMOTE_READ_TIMEOUT_SECS' }))
  it('respects .condarc settings', () => {
    const home = folderWith({ '.condarc': 'remote_max_retries: 5\n' })
    expect(knobs({}, home)).toEqual({ userSet: true, origin: `${join(home, '.condarc')} remote_max_retries` })
  })
  it('tunes otherwise', () => expect(knobs()).toEqual({ userSet: false }))
})
