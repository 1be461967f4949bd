import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { npm } from '../../../src/tools/npm.js'
import { npmConfigFiles } from '../../../src/tools/config/npm-config-files.js'
import { pip } from '../../../src/tools/pip.js'
import { pnpm } from '../../../src/tools/pnpm.js'
import { yarn } from '../../../src/tools/yarn.js'
import { sitePrefix } from '../../../src/tools/config/pip-site.js'
import type { ToolContext } from '../../../src/tools/types.js'
import { folderWith } from '../../helpers/tool-cases.js'

// A native program, as far as the first bytes tell (ELF): what resilient reads to know a Python from a shim.
const NATIVE = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(57)])
function pythonAt(prefix: string): string {
  mkdirSync(join(prefix, 'bin'), { recursive: true })
  const python = join(prefix, 'bin', 'python3.11')
  writeFileSync(python, NATIVE, { mode: 0o755 })
  return python
}

describe('pip: the site config is known only when the interpreter is', () => {
  it('a base installation\'s native Python: the folder above its real bin', () => {
    const prefix = folderWith()
    expect(sitePrefix({}, pythonAt(prefix))).toEqual({ prefix, guesses: [] })
  })
  it('a virtual environment\'s python, a link to a base one: the folder holding pyvenv.cfg', () => {
    const base = pythonAt(folderWith())
    const venv = folderWith({ 'pyvenv.cfg': 'home = /usr/bin\n' })
    mkdirSync(join(venv, 'bin'))
    symlinkSync(base, join(venv, 'bin', 'python'))
    writeFileSync(join(venv, 'bin', 'pip'), `#!${join(venv, 'bin', 'python')}\nimport pip\n`, { mode: 0o755 })
    expect(sitePrefix({}, join(venv, 'bin', 'pip'))).toEqual({ prefix: venv, guesses: [] })
  })
  it('the \'\'\'exec\' line pip writes under #!/bin/sh for a long path', () => {
    const prefix = folderWith()
    const python = pythonAt(prefix)
    const scripts = folderWith({ pip: `#!/bin/sh\n'''exec' "${python}" "$0" "$@"\n' '''\nimport pip\n` })
    expect(sitePrefix({}, join(scripts, 'pip')).prefix).toBe(prefix)
  })
  it.each([
    ['a pyenv shim', '#!/usr/bin/env bash\nset -e\nexec "/root/.pyenv/libexec/pyenv" exec "$program" "$@"\n'],
    ['an asdf-style shell shim', '#!/bin/sh\nexec /opt/python/bin/pip "$@"\n'],
    ['#!/usr/bin/env python3', '#!/usr/bin/env python3\nimport pip\n'],
  ])('%s: uncertain, with the reason', (_, text) => {
    const shims = folderWith({ pip: text })
    expect(sitePrefix({}, join(shims, 'pip'))).toMatchObject({ uncertain: expect.stringContaining('starts its Python at run time') })
  })
  it('PYTHONHOME, or no executable: uncertain', () => {
    expect(sitePrefix({ PYTHONHOME: '/opt' }, pythonAt(folderWith())).uncertain).toMatch(/PYTHONHOME/)
    expect(sitePrefix({}, undefined).uncertain).toBeDefined()
  })

  const context = (args: string, env: NodeJS.ProcessEnv, executable?: string): ToolContext => ({ args: args.split(' '), env, cwd: folderWith(), home: folderWith(), executable })
  it('pip\'s choice is certain when the command line, a requirement file, PIP_CONFIG_FILE=/dev/null or a true PIP_NO_INDEX decides it', () => {
    const shim = join(folderWith({ pip: '#!/bin/sh\nexec pip "$@"\n' }), 'pip')
    expect(pip.source!.uncertainty(context('install x', {}, shim))).toMatch(/run time/)
    expect(pip.source!.uncertainty(context('install -i https://a.test/simple x', {}, shim))).toBeUndefined()
    expect(pip.source!.uncertainty(context('install x', { PIP_CONFIG_FILE: '/dev/null' }, shim))).toBeUndefined()
    expect(pip.source!.uncertainty(context('install x', { PIP_NO_INDEX: '1' }, shim))).toBeUndefined()
    expect(pip.source!.uncertainty(context('install x', { PIP_INDEX_URL: 'https://a.test/simple' }, shim))).toMatch(/run time/)
  })
})

describe('pip config list, read as pip applies it', () => {
  const read = (stdout: string, args = 'install x') => pip.source!.read(stdout, { args: args.split(' '), env: {}, cwd: '/', home: '/' })
  it.each([
    ["global.index-url='https://corp.test/simple'\n", { url: 'https://corp.test/simple', origin: 'pip config list: global.index-url' }],
    ["global.index-url='https://g.test/simple'\ninstall.index-url='https://i.test/simple'\n", { url: 'https://i.test/simple', origin: 'pip config list: install.index-url' }],
    ["install.index-url='https://i.test/simple'\n:env:.index-url='https://e.test/simple'\n", { url: 'https://e.test/simple', origin: 'pip config list: :env:.index-url' }],
    ["global.index-url='https://g.test/simple'\nglobal.no-index='true'\nglobal.find-links='/srv/wheels'\n", { url: 'none', origin: 'pip config list: global.no-index' }],
    ['global.index-url="https://it\'s.test/simple"\n', { url: "https://it's.test/simple", origin: 'pip config list: global.index-url' }],
    ["global.cert='/etc/ssl/ca.pem'\n", null],
    ['', null],
  ])('%j', (stdout, expected) => expect(read(stdout)).toEqual(expected))
  it('another command\'s section does not count; a false no-index neither', () => {
    expect(read("download.index-url='https://d.test/simple'\nglobal.no-index='false'\n")).toBeNull()
  })
  it('output it does not understand is no answer', () => expect(read('Usage: pip config [options] list\n')).toBeUndefined())
})

describe('npm: the npmrc files npm itself reads', () => {
  const context = (cwd: string, args = 'install x', env: NodeJS.ProcessEnv = {}): ToolContext => ({ args: args.split(' '), env: { PATH: '', ...env }, cwd, home: folderWith(), executable: undefined })
  it('--prefix and -C: the project file there, not the working folder\'s', () => {
    const root = folderWith({ '.npmrc': 'registry=https://here.test/\n', 'package.json': '{}', 'frontend/package.json': '{}', 'frontend/.npmrc': 'registry=https://front.test/\n' })
    expect(npm.findUserIndex(context(root, 'install --prefix frontend acme-cli'))?.url).toBe('https://front.test/')
    expect(npm.findUserIndex(context(root, 'install -C frontend acme-cli'))?.url).toBe('https://front.test/')
    expect(npm.findUserIndex(context(root, 'install acme-cli'))?.url).toBe('https://here.test/')
  })
  it('a workspace package: the workspace root\'s file', () => {
    const root = folderWith({ 'package.json': '{"workspaces":["packages/*"]}', '.npmrc': 'registry=https://root.test/\n', 'packages/a/package.json': '{}', 'packages/a/.npmrc': 'registry=https://ignored.test/\n' })
    expect(npm.findUserIndex(context(join(root, 'packages', 'a')))?.url).toBe('https://root.test/')
    expect(npm.findUserIndex(context(join(root, 'packages', 'a'), 'install x --no-workspaces'))?.url).toBe('https://ignored.test/')
  })
  it('a folder the root does not list is a project of its own', () => {
    const root = folderWith({ 'package.json': '{"workspaces":["packages/*"]}', '.npmrc': 'registry=https://root.test/\n', 'tools/b/package.json': '{}' })
    expect(npm.findUserIndex(context(join(root, 'tools', 'b')))).toBeNull()
  })
  it('a workspaces pattern it cannot read is uncertain', () => {
    const root = folderWith({ 'package.json': '{"workspaces":["packages/{a,b}"]}', 'packages/a/package.json': '{}' })
    expect(npmConfigFiles(context(join(root, 'packages', 'a'))).uncertain).toMatch(/pattern/)
  })
  it('global mode ignores the project file: the user file and the global one under the prefix', () => {
    const prefix = folderWith({ 'etc/npmrc': 'registry=https://global.test/\n' })
    const project = folderWith({ 'package.json': '{}', '.npmrc': 'registry=https://project.test/\n' })
    for (const args of ['install -g acme-cli', 'install --global acme-cli', 'install --location=global acme-cli']) {
      expect(npm.findUserIndex(context(project, args, { npm_config_prefix: prefix }))?.url).toBe('https://global.test/')
    }
    expect(npm.findUserIndex(context(project, 'install acme-cli', { npm_config_prefix: prefix }))?.url).toBe('https://project.test/')
  })
  it('a userconfig or prefix set in an npmrc moves the files read after it', () => {
    const user = folderWith({ '.npmrc': 'registry=https://moved-user.test/\n' })
    const project = folderWith({ 'package.json': '{}', '.npmrc': `userconfig=${join(user, '.npmrc')}\n` })
    expect(npm.findUserIndex(context(project))?.url).toBe('https://moved-user.test/')
    const prefix = folderWith({ 'etc/npmrc': 'registry=https://moved-global.test/\n' })
    expect(npm.findUserIndex(context(folderWith({ 'package.json': '{}', '.npmrc': `prefix=${prefix}\n` })))?.url).toBe('https://moved-global.test/')
  })
  it('npm found as its own script is certain; a shim of a version manager is not', () => {
    const npmDir = folderWith({ 'bin/npm-cli.js': '', 'package.json': '{"name":"npm"}' })
    const bin = folderWith()
    symlinkSync(join(npmDir, 'bin', 'npm-cli.js'), join(bin, 'npm'))
    writeFileSync(join(bin, 'node'), NATIVE, { mode: 0o755 })
    const project = folderWith({ 'package.json': '{}' })
    expect(npmConfigFiles({ ...context(project), env: { PATH: bin }, executable: join(bin, 'npm') }).uncertain).toBeUndefined()
    const shim = join(folderWith({ npm: '#!/bin/sh\nexec volta run npm "$@"\n' }), 'npm')
    expect(npmConfigFiles({ ...context(project), env: { PATH: bin }, executable: shim }).uncertain).toMatch(/shim/)
    expect(npm.source!.uncertainty({ ...context(project, 'install --registry=https://r.test/ x'), executable: shim })).toBeUndefined()
  })
  it('npm config get registry is asked with the options that choose the files, and read', () => {
    const command = npm.source!.command(context('/', 'install --prefix frontend -g --userconfig=/u/.npmrc --registry-like x acme'), ['npm'])
    expect(command.argv).toEqual(['npm', 'config', 'get', 'registry', '--prefix', 'frontend', '-g', '--userconfig=/u/.npmrc'])
    expect(npm.source!.read('https://registry.npmjs.org/\n', context('/'))).toBeNull()
    expect(npm.source!.read('http://127.0.0.1:4873/\n', context('/'))).toEqual({ url: 'http://127.0.0.1:4873/', origin: 'npm config get registry' })
    expect(npm.source!.read('undefined\n', context('/'))).toBeUndefined()
  })
  it('npx: npm\'s own npx-cli.js is certain too, and the npm beside it answers (npx has no config command)', () => {
    const npmDir = folderWith({ 'bin/npx-cli.js': '', 'package.json': '{"name":"npm"}' })
    const bin = folderWith()
    symlinkSync(join(npmDir, 'bin', 'npx-cli.js'), join(bin, 'npx'))
    writeFileSync(join(bin, 'node'), NATIVE, { mode: 0o755 })
    expect(npmConfigFiles({ ...context(folderWith({ 'package.json': '{}' })), env: { PATH: bin }, executable: join(bin, 'npx') }).uncertain).toBeUndefined()
    expect(npm.source!.command(context('/', '--yes --package x -- prog --prefix p'), ['/usr/bin/npx']).argv).toEqual(['/usr/bin/npm', 'config', 'get', 'registry'])
    expect(npm.source!.command(context('/', '--prefix p x'), ['npx']).argv).toEqual(['npm', 'config', 'get', 'registry', '--prefix', 'p'])
  })
})

describe('pnpm and yarn 1: the folder they are told to work in', () => {
  const context = (cwd: string, args: string): ToolContext => ({ args: args.split(' '), env: {}, cwd, home: folderWith() })
  const root = () => folderWith({ 'package.json': '{}', 'frontend/package.json': '{}', 'frontend/.npmrc': 'registry=https://front.test/\n' })
  it.each(['-C frontend add acme', '--dir frontend add acme', '--dir=frontend add acme'])('pnpm %s', args => expect(pnpm.findUserIndex(context(root(), args))?.url).toBe('https://front.test/'))
  it('pnpm: the workspace root\'s .npmrc, below the project\'s, and neither in global mode', () => {
    const ws = folderWith({ 'pnpm-workspace.yaml': 'packages:\n  - apps/*\n', '.npmrc': 'registry=https://ws.test/\n', 'apps/web/package.json': '{}' })
    expect(pnpm.findUserIndex(context(join(ws, 'apps', 'web'), 'add acme'))?.url).toBe('https://ws.test/')
    writeFileSync(join(ws, 'apps', 'web', '.npmrc'), 'registry=https://project.test/\n')
    expect(pnpm.findUserIndex(context(join(ws, 'apps', 'web'), 'add acme'))?.url).toBe('https://project.test/')
    expect(pnpm.findUserIndex(context(join(ws, 'apps', 'web'), 'add -g acme'))).toBeNull()
  })
  it.each(['--cwd frontend add acme', 'add acme --cwd frontend'])('yarn %s', args => expect(yarn.findUserIndex(context(root(), args))?.url).toBe('https://front.test/'))
  it('yarn --cwd: the .yarnrc there too', () => {
    const dir = folderWith({ 'frontend/package.json': '{}', 'frontend/.yarnrc': 'registry "https://yarnrc.test/"\n' })
    expect(yarn.findUserIndex(context(dir, '--cwd frontend add acme'))?.url).toBe('https://yarnrc.test/')
  })
})
