import { findUserKnobs } from '../../../src/tools/knobs.js'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { micromamba } from '../../../src/tools/micromamba.js'
import { contextIn, folderWith, rewrite } from '../../helpers/tool-cases.js'

const M = 'https://mirror.test/anaconda/cloud'
const DEFAULTS = 'MAMBA_DEFAULT_CHANNELS=https://mirror.test/anaconda/pkgs/main,https://mirror.test/anaconda/pkgs/r'
const _ = (line: string, expected: string, options: { url?: string } = {}) => () =>
  expect(rewrite(micromamba, line, options.url ?? M)).toBe(expected)

describe('micromamba: rewriting', () => {
  it('adds --channel-alias', _('micromamba install -c conda-forge numpy', `${DEFAULTS} micromamba install -c conda-forge numpy --channel-alias ${M}`))
  it('adds only the alias on a mirror without defaults', _('micromamba install numpy', 'micromamba install numpy --channel-alias https://prefix.test', { url: 'https://prefix.test' }))
  it('replaces a public alias of the user (CLI11 refuses a repeated option)',
    _('micromamba create -n e --channel-alias https://conda.anaconda.org x', `${DEFAULTS} micromamba create -n e --channel-alias ${M} x`))
  it('replaces --channel-alias=URL', _('micromamba install --channel-alias=https://conda.anaconda.org x', `${DEFAULTS} micromamba install --channel-alias=${M} x`))
  it('points conda.anaconda.org URLs at the mirror', _('micromamba install -c https://conda.anaconda.org/conda-forge x',
    `${DEFAULTS} micromamba install -c ${M}/conda-forge x --channel-alias ${M}`))
  it('never touches connect timeout or retries', _('micromamba install x',
    `${DEFAULTS} micromamba install x --channel-alias ${M}`))
  it('handles create -f', _('micromamba create -f env.yml', `${DEFAULTS} micromamba create -f env.yml --channel-alias ${M}`))
  it('leaves run alone', _('micromamba run -n e python', 'micromamba run -n e python'))
  it('leaves list alone', _('micromamba list', 'micromamba list'))
})

describe('micromamba: classify', () => {
  const classify = (args: string) => micromamba.classify(args.split(' ').filter(Boolean))
  it.each(['install x', 'create -n e x', 'update --all', 'remove x', 'self-update', 'repoquery search x', 'search x', '-r /opt/mm install x', 'env create -f e.yml'])(
    '%s is network', args => expect(classify(args)).toBe('network'))
  it.each(['', 'list', 'info', 'config list', 'clean -a', 'env list', 'env export', 'run -n e x', 'shell', 'activate e', '--version', 'install --offline x'])(
    '"%s" is local', args => expect(classify(args)).toBe('local'))
})

describe('micromamba: the user channel choice', () => {
  const project = folderWith({})
  const index = (args: string, env: NodeJS.ProcessEnv = {}, home?: string) => micromamba.findUserIndex(contextIn(project, args, env, home))
  it.each([
    ['install -c https://corp.test/ch x', 'https://corp.test/ch', '-c'],
    ['install --channel=https://corp.test/ch x', 'https://corp.test/ch', '--channel'],
    ['install --channel-alias https://corp.test/conda x', 'https://corp.test/conda', '--channel-alias'],
  ])('%s', (args, url, origin) => expect(index(args)).toEqual({ url, origin }))
  it('takes no prefix of an option (CLI11)', () => expect(index('install --chan https://corp.test/ch x')).toBeNull())
  it('reads MAMBA_CHANNEL_ALIAS and CONDA_CHANNELS', () => {
    expect(index('install x', { MAMBA_CHANNEL_ALIAS: 'https://corp.test/conda' })?.origin).toBe('MAMBA_CHANNEL_ALIAS')
    expect(index('install x', { CONDA_CHANNELS: 'https://corp.test/ch' })?.origin).toBe('CONDA_CHANNELS')
  })
  it('reads ~/.mambarc, MAMBARC and mirrored_channels', () => {
    expect(index('install x', {}, folderWith({ '.mambarc': 'channels: [https://corp.test/ch]\n' }))?.url).toBe('https://corp.test/ch')
    const files = folderWith({ rc: 'mirrored_channels:\n  conda-forge: [https://corp.test/cf]\n' })
    expect(index('install x', { MAMBARC: join(files, 'rc') })?.url).toBe('https://corp.test/cf')
  })
  it('reads only --rc-file when given, and no rc file with --no-rc', () => {
    const home = folderWith({ '.condarc': 'channels: [https://home.test/ch]\n', other: 'channels: [https://other.test/ch]\n' })
    expect(index(`install --rc-file ${join(home, 'other')} x`, {}, home)?.url).toBe('https://other.test/ch')
    expect(index('install --no-rc x', {}, home)).toBeNull()
    expect(index('install x', {}, home)?.url).toBe('https://home.test/ch')
  })
  it('reads the root prefix rc file', () => {
    const root = folderWith({ '.mambarc': 'channel_alias: https://corp.test/conda\n' })
    expect(index('install x', { MAMBA_ROOT_PREFIX: root })?.url).toBe('https://corp.test/conda')
  })
})

describe('micromamba: timeouts', () => {
  it('respects MAMBA_REMOTE_* variables', () =>
    expect(findUserKnobs(micromamba, contextIn(folderWith({}), 'install x', { MAMBA_REMOTE_MAX_RETRIES: '9' }))).toEqual({ userSet: true, origin: 'MAMBA_REMOTE_MAX_RETRIES' }))
})
