import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configSchema } from '../../../src/config/schema.js'
import { orderSources } from '../../../src/plan/sources.js'
import { conda } from '../../../src/tools/conda.js'
import { redirectChannelUrls } from '../../../src/tools/conda-family.js'
import { micromamba } from '../../../src/tools/micromamba.js'
import { TOOLS } from '../../../src/tools/index.js'
import { npm } from '../../../src/tools/npm.js'
import { pixi } from '../../../src/tools/pixi.js'
import { mirrorConfigText } from '../../../src/tools/config/pixi-config.js'
import { pip } from '../../../src/tools/pip.js'
import { pnpm } from '../../../src/tools/pnpm.js'
import type { ToolAdapter, ToolContext } from '../../../src/tools/types.js'
import { folderWith } from '../../helpers/tool-cases.js'

// Every spelling each tool's own parser accepts for its index is the user's choice. A private index named
// in any of them must plan no mirror at all (the private registry answers 503: the install still never leaves it).
const PRIVATE = 'https://private.corp.test/registry/'
const PRIVATE_PYPI = 'https://private.corp.test/simple'

function plan(adapter: ToolAdapter, args: string, options: { env?: NodeJS.ProcessEnv; cwd?: string; home?: string; executable?: string } = {}) {
  const context: ToolContext = { args: args.split(' ').filter(Boolean), env: options.env ?? {}, cwd: options.cwd ?? folderWith({ 'package.json': '{}' }), home: options.home ?? folderWith(), executable: options.executable }
  const userIndex = adapter.findUserIndex(context)
  const order = orderSources({ adapter, config: configSchema.parse({}), userIndex, noMirrorReason: adapter.noMirrorReason?.(context) })
  const primary = order.sources.find(entry => !entry.requested)!.source
  return { userIndex, plan: { primary, fallbacks: order.sources.map(entry => entry.source).filter(source => source !== primary), noSwitchReason: order.noSwitchReason } }
}

function expectPrivate(result: ReturnType<typeof plan>, host = 'private.corp.test') {
  expect(result.plan.fallbacks).toEqual([])
  expect(result.plan.primary.kind).toBe('private')
  expect(result.plan.noSwitchReason).toContain(host)
}

describe('npm: every spelling nopt accepts for the registry', () => {
  it.each([
    `install -registry ${PRIVATE} x`, `install -registry=${PRIVATE} x`, `install -reg ${PRIVATE} x`, `install -reg=${PRIVATE} x`,
    `install -regi ${PRIVATE} x`, `install ---registry=${PRIVATE} x`, `install --regis=${PRIVATE} x`, `install --registr ${PRIVATE} x`,
    `--registry ${PRIVATE} install x`, `install --reg=${PRIVATE} x`,
  ])('%s', args => expectPrivate(plan(npm, args)))
  it.each(['npm_config_registry', 'NPM_CONFIG_REGISTRY', 'npm_config_REGISTRY', 'Npm_Config_Registry'])('%s in the environment', name =>
    expectPrivate(plan(npm, 'install x', { env: { [name]: PRIVATE } })))
  it('a project .npmrc, the user one and the global one', () => {
    expectPrivate(plan(npm, 'install x', { cwd: folderWith({ 'package.json': '{}', '.npmrc': `registry=${PRIVATE}\n` }) }))
    expectPrivate(plan(npm, 'install x', { home: folderWith({ '.npmrc': `registry = "${PRIVATE}"\n` }) }))
    const prefix = folderWith({ 'etc/npmrc': `registry=${PRIVATE}\n`, 'bin/npm': '' })
    expectPrivate(plan(npm, 'install x', { executable: join(prefix, 'bin', 'npm') }))
  })
  it('a credential for a private registry host makes it private (//host/:_authToken)', () => {
    const corp = { 'package.json': '{}', '.npmrc': `registry=https://npm.corp.test/\n` }
    expectPrivate(plan(npm, 'install x', { cwd: folderWith(corp), home: folderWith({ '.npmrc': '//npm.corp.test/:_authToken=${NPM_TOKEN}\n' }) }), 'npm.corp.test')
    expectPrivate(plan(npm, 'install x', { env: { 'npm_config_//npm.corp.test/:_authToken': 'x', npm_config_registry: 'https://npm.corp.test/' } }), 'npm.corp.test')
  })
  it('a legacy unscoped token, which would follow the install to a mirror, makes the public registry private', () =>
    expectPrivate(plan(npm, 'install x', { home: folderWith({ '.npmrc': '_authToken=abc\n' }) }), 'registry.npmjs.org'))
  it('a token scoped to the public registry (a CI publish token) keeps mirrors: npm sends it to that host only', () => {
    expect(plan(npm, 'install x', { home: folderWith({ '.npmrc': '//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n' }) }).plan.fallbacks.length).toBeGreaterThan(0)
    expect(plan(npm, 'install x --//registry.npmjs.org/:_authToken=x').plan.fallbacks.length).toBeGreaterThan(0)
  })
  it('a credential for another host leaves the public registry public', () =>
    expect(plan(npm, 'install x', { home: folderWith({ '.npmrc': '//npm.corp.test/:_authToken=abc\n' }) }).plan.fallbacks.length).toBeGreaterThan(0))
  it('a scope registry keeps its host whatever --registry says: mirrors stay allowed for the rest', () =>
    expect(plan(npm, `install @corp/x --@corp:registry=${PRIVATE}`).plan.fallbacks.length).toBeGreaterThan(0))
  it('fails closed on an option naming a registry it cannot read', () => {
    const result = plan(npm, `install --registry-url=${PRIVATE} x`)
    expect(result.plan.fallbacks).toEqual([])
    expect(result.plan.noSwitchReason).toContain('--registry-url')
  })
  it('fails closed on an npmrc it cannot read', () => {
    const home = folderWith({ '.npmrc': 'registry=https://registry.npmjs.org/\n' })
    mkdirSync(join(home, 'unreadable'))
    const result = plan(npm, 'install x', { env: { npm_config_userconfig: join(home, 'unreadable') } })
    expect(result.plan.fallbacks).toEqual([])
    expect(result.plan.noSwitchReason).toContain('could not be read')
  })
})

describe('pnpm: every spelling', () => {
  it.each([
    `add -registry=${PRIVATE} x`, `add -reg ${PRIVATE} x`, `add --regis=${PRIVATE} x`, `add --config.registry=${PRIVATE} x`,
    `add --config.registry ${PRIVATE} x`, `add --registry ${PRIVATE} x`,
  ])('%s', args => expectPrivate(plan(pnpm, args)))
  it.each(['pnpm_config_registry', 'PNPM_CONFIG_REGISTRY', 'npm_config_registry', 'NPM_CONFIG_REGISTRY'])('%s', name =>
    expectPrivate(plan(pnpm, 'add x', { env: { [name]: PRIVATE } })))
  it('pnpm-workspace.yaml registry and registries.default', () => {
    expectPrivate(plan(pnpm, 'install', { cwd: folderWith({ 'package.json': '{}', 'pnpm-workspace.yaml': `registry: ${PRIVATE}\n` }) }))
    expectPrivate(plan(pnpm, 'install', { cwd: folderWith({ 'package.json': '{}', 'pnpm-workspace.yaml': `registries:\n  default: ${PRIVATE}\n` }) }))
  })
})

describe('pip: every spelling optparse accepts for the index', () => {
  const env = (extra: NodeJS.ProcessEnv = {}) => ({ PIP_CONFIG_FILE: '/nonexistent/pip.conf', ...extra })
  it.each([
    `install -i ${PRIVATE_PYPI} x`, `install -i${PRIVATE_PYPI} x`, `install -qi ${PRIVATE_PYPI} x`, `install -qi${PRIVATE_PYPI} x`,
    `install -vvi ${PRIVATE_PYPI} x`, `install -Uqi ${PRIVATE_PYPI} x`, `install --index-url ${PRIVATE_PYPI} x`, `install --index-url=${PRIVATE_PYPI} x`,
    `install --index ${PRIVATE_PYPI} x`, `install --ind=${PRIVATE_PYPI} x`, `install --pypi-url ${PRIVATE_PYPI} x`, `install --pypi=${PRIVATE_PYPI} x`,
    `download -qi ${PRIVATE_PYPI} x`, `wheel -i ${PRIVATE_PYPI} x`,
  ])('%s', args => expectPrivate(plan(pip, args, { env: env() })))
  // pip parses a requirements file's option lines with optparse too (pip req_file.py build_parser): same spellings.
  it.each([`--index ${PRIVATE_PYPI}`, `--ind=${PRIVATE_PYPI}`, `-i${PRIVATE_PYPI}`, `--pypi-url ${PRIVATE_PYPI}`, `-i ${PRIVATE_PYPI} # ours`])('a requirements file line %s', line => {
    const cwd = folderWith({ 'req.txt': `${line}\nx\n`, 'top.txt': '--requirement=req.txt\n' })
    const result = plan(pip, 'install -rtop.txt', { env: env(), cwd })
    expect(result.userIndex).toMatchObject({ url: PRIVATE_PYPI, locked: true, origin: `${join(cwd, 'req.txt')}:1` })
    expectPrivate(result)
  })
  it('does not read the value of another option as -i (`-rreq-i.txt` is -r)', () => {
    const cwd = folderWith({ 'req-i.txt': 'x\n' })
    expect(plan(pip, 'install -rreq-i.txt', { env: env(), cwd }).plan.fallbacks.length).toBeGreaterThan(0)
  })
  it.each(['PIP_INDEX_URL', 'PIP_index_url', 'PIP_PYPI_URL', 'PIP_INDEX-URL'])('%s', name => expectPrivate(plan(pip, 'install x', { env: env({ [name]: PRIVATE_PYPI }) })))
  it('a virtual environment\'s own pip.conf, whatever VIRTUAL_ENV says', () => {
    const venv = folderWith({ 'pyvenv.cfg': 'home = /usr/bin\n', 'bin/pip': '#!/bin/sh\n', 'pip.conf': `[global]\nindex-url = ${PRIVATE_PYPI}\n` })
    expectPrivate(plan(pip, 'download foo', { env: {}, executable: join(venv, 'bin', 'pip') }))
  })
  it('the prefix of the interpreter in the pip script\'s #! line', () => {
    const prefix = folderWith({ 'pip.conf': `[install]\nindex-url = ${PRIVATE_PYPI}\n`, 'bin/python3': '' })
    const scripts = folderWith({ 'pip': `#!${join(prefix, 'bin', 'python3')}\nimport pip\n` })
    expectPrivate(plan(pip, 'install foo', { env: {}, executable: join(scripts, 'pip') }))
  })
  it('--isolated skips PIP_* and the user file, not the global and site files', () => {
    const venv = folderWith({ 'bin/pip': '', 'pip.conf': `[global]\nindex-url = ${PRIVATE_PYPI}\n` })
    expectPrivate(plan(pip, '--isolated install foo', { env: {}, executable: join(venv, 'bin', 'pip') }))
  })
  it('fails closed on a pip.conf it cannot read', () => {
    const home = folderWith()
    mkdirSync(join(home, '.config', 'pip', 'pip.conf'), { recursive: true })
    const result = plan(pip, 'install x', { env: { XDG_CONFIG_HOME: join(home, '.config') }, home })
    expect(result.plan.fallbacks).toEqual([])
    expect(result.plan.noSwitchReason).toContain('could not be read')
  })
})


describe('conda family: token channels are private and never rewritten', () => {
  const TOKEN = 'ab-12345678-90cd-ef'
  const channel = `https://conda.anaconda.org/t/${TOKEN}/privchan`
  it.each([
    [conda, `install -c ${channel} numpy`], [conda, `install --channel=${channel} numpy`], [conda, `install ${channel}::numpy`],
    [micromamba, `install -c ${channel} numpy`], [conda, `install -c https://user:pw@conda.corp.test/chan numpy`],
  ])('%#: %s', (adapter, args) => {
    const result = plan(adapter, args, { env: { CONDARC: '/nonexistent' } })
    expect(result.plan.fallbacks).toEqual([])
    expect(result.plan.noSwitchReason).toContain('carries credentials')
    expect(result.plan.noSwitchReason).not.toContain(TOKEN)
  })
  it('a mirror attempt leaves a token channel URL alone (defence in depth)', () => {
    const command = redirectChannelUrls({ argv: ['conda', 'install', '-c', channel, '-c', 'https://conda.anaconda.org/conda-forge', 'x'], env: {} }, 'https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud')
    expect(command.argv).toContain(channel)
    expect(command.argv).toContain('https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud/conda-forge')
  })
  it('pixi\'s [mirrors] table maps token channels to themselves', () => {
    const text = mirrorConfigText({}, 'https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud/')
    expect(text).toContain('"https://conda.anaconda.org/t/" = [ "https://conda.anaconda.org/t/" ]')
  })
  it('a pixi manifest naming a token channel is private', () => {
    const cwd = folderWith({ 'pixi.toml': `[workspace]\nname = "x"\nchannels = ["${channel}"]\nplatforms = ["linux-64"]\n` })
    const result = plan(pixi, 'install', { cwd, env: { PIXI_NO_CONFIG: '1' } })
    expect(result.plan.fallbacks).toEqual([])
  })
})

describe('clusters of clap (uv) and argparse (conda)', () => {
  it.each([`pip install -qi ${PRIVATE_PYPI} x`, `pip install -qi${PRIVATE_PYPI} x`])('uv %s', args =>
    expectPrivate(plan(TOOLS.uv, args, { env: { UV_NO_CONFIG: '1' } })))
  it.each(['install -yc https://conda.corp.test/chan numpy', 'install -qyc https://conda.corp.test/chan numpy'])('conda %s', args =>
    expectPrivate(plan(conda, args, { env: { CONDARC: '/nonexistent' } }), 'conda.corp.test'))
})

describe('pipx: pip\'s own spellings inside --pip-args', () => {
  it.each([`install --pip-args=--ind=${PRIVATE_PYPI} x`, `install --pip-args=-qi${PRIVATE_PYPI} x`, `install --ind ${PRIVATE_PYPI} x`])('%s', args =>
    expectPrivate(plan(TOOLS.pipx, args, { env: { PIP_CONFIG_FILE: '/nonexistent/pip.conf' } })))
  it('--pip-args=--no-ind is no index at all', () => expect(plan(TOOLS.pipx, 'install --pip-args=--no-ind x', { env: { PIP_CONFIG_FILE: '/nonexistent/pip.conf' } }).userIndex?.url).toBe('none'))
})

