import { chmodSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'smol-toml'
import { describe, expect, it } from 'vitest'
import { configSchema } from '../../../src/config/schema.js'
import { buildCommand, planSources } from '../../helpers/plan-helpers.js'
import { pixi, pixiWith, type PixiSetup } from '../../../src/tools/pixi.js'
import type { CommandLine } from '../../../src/tools/types.js'
import { contextIn, folderWith, rewrite } from '../../helpers/tool-cases.js'

const M = 'https://mirror.test/anaconda/cloud'

function setup(homeFiles: Record<string, string> = {}, env: NodeJS.ProcessEnv = {}, version?: [number, number]): PixiSetup {
  return { env, home: folderWith(homeFiles), scratch: { path: folderWith() }, version }
}

/** The command of an attempt on the mirror, with the generated config parsed. */
function attempt(line: string, on: PixiSetup = setup()): { command: CommandLine; text: string; config: Record<string, unknown> } {
  const adapter = pixiWith(on)
  const [launcher, ...args] = line.split(' ')
  const source = { id: 'm', url: M, kind: 'mirror' as const, label: 'm' }
  const invocation = { tool: 'pixi' as const, adapter, launcher: [launcher!], args, executable: '/usr/bin/pixi' }
  const command = buildCommand({ invocation, config: configSchema.parse({}), userKnobs: false }, source, false)
  const file = command.files?.[0]
  return { command, text: file?.content ?? '', config: file ? parse(file.content) as Record<string, unknown> : {} }
}

describe('pixi: rewriting', () => {
  it('gives a temporary config through PIXI_CONFIG_FILE', () => {
    const on = setup()
    const { command, config } = attempt('pixi add numpy', on)
    const path = command.files![0]!.path
    expect(path.startsWith(on.scratch.path)).toBe(true)
    expect(command.env).toEqual({ PIXI_CONFIG_FILE: path })
    expect(command.argv).toEqual(['pixi', 'add', 'numpy'])
    expect(config.mirrors).toMatchObject({
      'https://conda.anaconda.org/': [`${M}/`],
      'https://repo.anaconda.com/pkgs/': ['https://mirror.test/anaconda/pkgs/'],
      // A channel a manifest names by a catalog mirror's URL follows too.
      'https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud/': [`${M}/`],
      'http://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud/': [`${M}/`],
    })
  })
  it('never maps the mirror onto itself', () => {
    const adapter = pixiWith(setup())
    const source = { id: 'tuna', url: 'https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud', kind: 'mirror' as const, label: 'tuna' }
    const invocation = { tool: 'pixi' as const, adapter, launcher: ['pixi'], args: ['install'], executable: '/usr/bin/pixi' }
    const command = buildCommand({ invocation, config: configSchema.parse({}), userKnobs: true }, source, false)
    const mirrors = (parse(command.files![0]!.content) as { mirrors: Record<string, string[]> }).mirrors
    expect(mirrors['https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud/']).toBeUndefined()
    expect(mirrors['https://conda.anaconda.org/']).toEqual(['https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud/'])
  })
  it('shows the config file in the printed command', () => {
    const printed = rewrite(pixiWith(setup()), 'pixi install', M)
    expect(printed).toMatch(/^PIXI_CONFIG_FILE=(\S+\/pixi-mirror\.test-[0-9a-f]{8}\.toml) pixi install # with \1$/)
  })
  it('carries the user global config over, merged in pixi order, and keeps other mirrors', () => {
    const on = setup({
      '.config/pixi/config.toml': 'tls-no-verify = true\n[mirrors]\n"https://conda.anaconda.org" = ["https://old.test/"]\n"https://pypi.org/simple" = ["https://pypi-mirror.test/simple"]\n',
      '.pixi/config.toml': 'authentication-override-file = "/secrets/auth.json"\n',
    })
    const { config } = attempt('pixi install', on)
    expect(config['tls-no-verify']).toBe(true)
    expect(config['authentication-override-file']).toBe('/secrets/auth.json')
    expect(config.mirrors).toMatchObject({ 'https://conda.anaconda.org/': [`${M}/`], 'https://pypi.org/simple': ['https://pypi-mirror.test/simple'] })
    expect(Object.keys(config.mirrors as object)).not.toContain('https://conda.anaconda.org')
  })
  it('reads PIXI_HOME for the user config', () => {
    const home = folderWith({ 'config.toml': 'concurrency.downloads = 3\n' })
    expect(attempt('pixi install', setup({}, { PIXI_HOME: home })).config.concurrency).toEqual({ downloads: 3 })
  })
  it('replaces the user --config-file, carrying its content over', () => {
    const files = folderWith({ 'mine.toml': 'pinning-strategy = "semver"\n' })
    const { command, config } = attempt(`pixi add --config-file ${join(files, 'mine.toml')} numpy`, setup({ '.pixi/config.toml': 'tls-no-verify = true\n' }))
    expect(command.argv).toEqual(['pixi', 'add', '--config-file', command.files![0]!.path, 'numpy'])
    expect(command.env).toEqual({})
    expect(config['pinning-strategy']).toBe('semver')
    expect(config['tls-no-verify']).toBeUndefined()
  })
  it('replaces --config-file=PATH', () => {
    const { command } = attempt('pixi install --config-file=/nonexistent.toml')
    expect(command.argv).toEqual(['pixi', 'install', `--config-file=${command.files![0]!.path}`])
  })
  it('keeps --no-config meaning no user config', () => {
    const { command, config } = attempt('pixi install --no-config', setup({ '.pixi/config.toml': 'tls-no-verify = true\n' }))
    expect(command.argv).toEqual(['pixi', 'install', '--config-file', command.files![0]!.path])
    expect(config['tls-no-verify']).toBeUndefined()
  })
  it('turns PIXI_NO_CONFIG off for the attempt (clap refuses both)', () =>
    expect(attempt('pixi install', setup({}, { PIXI_NO_CONFIG: '1' })).command.env).toMatchObject({ PIXI_NO_CONFIG: 'false' }))
  it('never touches the timeouts of its PyPI side', () => expect(Object.keys(attempt('pixi install', setup()).command.env)).not.toContain('UV_HTTP_TIMEOUT'))
  it('leaves run alone', () => expect(rewrite(pixiWith(setup()), 'pixi run test', M)).toBe('pixi run test'))
  it('leaves init alone', () => expect(rewrite(pixiWith(setup()), 'pixi init -c conda-forge', M)).toBe('pixi init -c conda-forge'))
})

describe('pixi: classify', () => {
  const classify = (args: string) => pixi.classify(args.split(' ').filter(Boolean))
  it.each(['add numpy', 'a numpy', 'install', 'i', 'remove x', 'rm x', 'update', 'upgrade', 'lock', 'reinstall', 'search x', 'exec x', 'x x',
    'global install x', 'g i x', 'global sync', 'global update', '--manifest-path p/pixi.toml install'])('%s is network', args => expect(classify(args)).toBe('network'))
  it.each(['upload x.conda', 'publish', 'auth login prefix.dev'])('%s is publish', args => expect(classify(args)).toBe('publish'))
  it.each(['', 'init', 'run test', 'shell', 'list', 'tree', 'info', 'config list', 'global list', 'install --offline', '--version', 'self-update'])(
    '"%s" is local', args => expect(classify(args)).toBe('local'))
})

describe('pixi: the user channel choice', () => {
  const index = (args: string, cwd = folderWith({}), env: NodeJS.ProcessEnv = {}, home?: string) => pixi.findUserIndex(contextIn(cwd, args, env, home))
  it('reads manifest channels: [workspace], [project], features and tables', () => {
    expect(index('install', folderWith({ 'pixi.toml': '[workspace]\nchannels = ["conda-forge", "https://corp.test/ch"]\n' }))?.url).toBe('https://corp.test/ch')
    expect(index('install', folderWith({ 'pixi.toml': '[project]\nchannels = ["https://corp.test/p"]\n' }))?.url).toBe('https://corp.test/p')
    expect(index('install', folderWith({ 'pixi.toml': '[workspace]\nchannels = ["conda-forge"]\n[feature.gpu]\nchannels = [{ channel = "https://corp.test/f", priority = 1 }]\n' }))?.url).toBe('https://corp.test/f')
  })
  it('reads [tool.pixi] in pyproject.toml above the current folder, and --manifest-path', () => {
    const root = folderWith({ 'pyproject.toml': '[tool.pixi.workspace]\nchannels = ["https://corp.test/py"]\n', 'src/.keep': '' })
    expect(index('install', join(root, 'src'))?.url).toBe('https://corp.test/py')
    const other = folderWith({ 'w/pixi.toml': '[workspace]\nchannels = ["https://corp.test/w"]\n' })
    expect(index('install --manifest-path w/pixi.toml', other)?.url).toBe('https://corp.test/w')
    expect(index('install -m w', other)?.url).toBe('https://corp.test/w')
  })
  it('takes named and public channels for no choice', () =>
    expect(index('install', folderWith({ 'pixi.toml': '[workspace]\nchannels = ["conda-forge", "https://conda.anaconda.org/bioconda"]\n' }))).toBeNull())
  it('reads the mirrors of the workspace and the user config', () => {
    const root = folderWith({ 'pixi.toml': '[workspace]\nchannels = ["conda-forge"]\n', '.pixi/config.toml': '[mirrors]\n"https://conda.anaconda.org/conda-forge" = ["https://corp.test/cf"]\n' })
    expect(index('install', root)?.url).toBe('https://corp.test/cf')
    const home = folderWith({ '.pixi/config.toml': 'default-channels = ["https://corp.test/default"]\n' })
    expect(index('global install x', folderWith({}), {}, home)?.url).toBe('https://corp.test/default')
  })
  it('reads -c of init, global install and exec', () => {
    expect(index('init -c https://corp.test/ch')).toEqual({ url: 'https://corp.test/ch', origin: '-c' })
    expect(index('global install --channel https://corp.test/ch x')?.url).toBe('https://corp.test/ch')
  })
  it('never replaces a private channel', () => {
    const context = contextIn(folderWith({ 'pixi.toml': '[workspace]\nchannels = ["https://corp.test/ch"]\n' }), 'install')
    const plan = planSources({ adapter: pixi, config: configSchema.parse({}), userIndex: pixi.findUserIndex(context), context })
    expect(plan.fallbacks).toEqual([])
  })
})

describe('pixi: when no mirror can help', () => {
  const reason = (args: string, version?: [number, number]) => pixiWith(setup({}, {}, version)).noMirrorReason(contextIn(folderWith({}), args))
  it('says so for global and exec', () => {
    expect(reason('global install x')).toMatch(/pixi global reads mirrors only from its global config/)
    expect(reason('exec python')).toMatch(/pixi exec/)
  })
  it('says so before 0.70 (no --config-file)', () => expect(reason('install', [0, 65])).toMatch(/pixi 0\.65 reads mirrors only/))
  it('lets 0.70 and later use a mirror', () => expect(reason('install', [0, 77])).toBeUndefined())
  it('reads the version with resolveVariant', async () => {
    const dir = folderWith({ pixi: '#!/bin/sh\necho "pixi 0.65.1"\n' })
    chmodSync(join(dir, 'pixi'), 0o755)
    const bound = await pixi.resolveVariant(join(dir, 'pixi'), { HOME: folderWith() }, { path: folderWith() })
    expect(bound.noMirrorReason!(contextIn(folderWith({}), 'install'))).toMatch(/0\.65/)
  })
})
