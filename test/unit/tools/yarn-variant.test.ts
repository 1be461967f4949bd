import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { yarnFamilyFromFiles } from '../../../src/tools/yarn-variant.js'
import { resolveVariantCached } from '../../../src/state/variant-cache.js'
import { yarn } from '../../../src/tools/yarn.js'

const NODE_MODULES = fileURLToPath(new URL('../../../node_modules/', import.meta.url))

/**
 * A machine with one yarn installed as npm links it (a bin folder holding a link to the package's script), a home and
 * a project. The script answers `--version` with `answers` and counts its starts: a test sees whether it was asked.
 */
function machine(pkg: { name: string; version: string; folder?: string; script?: string }, answers = '1.22.22') {
  const root = mkdtempSync(join(tmpdir(), 'resilient-yarn-variant-'))
  const [home, project, bin] = [join(root, 'home'), join(root, 'project'), join(root, 'bin')]
  const packageRoot = join(root, 'lib', 'node_modules', pkg.name)
  const script = join(packageRoot, pkg.folder ?? 'bin', pkg.script ?? 'yarn.js')
  for (const dir of [home, project, bin, dirname(script)]) mkdirSync(dir, { recursive: true })
  writeFileSync(join(packageRoot, 'package.json'), JSON.stringify({ name: pkg.name, version: pkg.version, bin: { yarn: 'bin/yarn.js' } }))
  const starts = join(root, 'starts')
  writeFileSync(script, `#!/bin/sh\necho started >> '${starts}'\necho ${answers}\n`, { mode: 0o755 })
  symlinkSync(script, join(bin, 'yarn'))
  const env: NodeJS.ProcessEnv = { HOME: home, RESILIENT_STATE_DIR: join(root, 'state'), PATH: `${bin}:/usr/bin:/bin` }
  const context = (extra: { cwd?: string; env?: NodeJS.ProcessEnv; args?: string[] } = {}) =>
    ({ args: extra.args ?? ['install'], env: { ...env, ...extra.env }, cwd: extra.cwd ?? project, home })
  const family = (extra?: Parameters<typeof context>[0]) => yarnFamilyFromFiles(join(bin, 'yarn'), context(extra))
  const write = (path: string, content: string) => {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, content)
  }
  return { root, home, project, bin, family, context, write, starts: () => existsSync(starts) ? readFileSync(starts, 'utf8').split('\n').filter(Boolean).length : 0 }
}

const BERRY = { name: '@yarnpkg/cli-dist', version: '4.9.1' }
const CLASSIC = { name: 'yarn', version: '1.22.22' }
const COREPACK = { name: 'corepack', version: '0.34.6', folder: 'dist' }

describe('yarn 1 or berry from the package the executable belongs to', () => {
  it('is berry for @yarnpkg/cli-dist', () => expect(machine(BERRY).family()).toBe('berry'))
  it('is yarn 1 for the yarn package', () => expect(machine(CLASSIC).family()).toBe('classic'))
  it('is yarn 1 for the tarball\'s shell launcher (bin/yarn, as the installer and Homebrew link it)', () =>
    expect(machine({ ...CLASSIC, script: 'yarn' }).family()).toBe('classic'))
  it('is berry for a prerelease of 4', () => expect(machine({ ...BERRY, version: '4.0.0-rc.53' }).family()).toBe('berry'))
  it('leaves a package whose version it cannot read to yarn', () => expect(machine({ ...BERRY, version: 'latest' }).family()).toBeUndefined())
  it('leaves another package\'s script to yarn (a wrapper, a version manager\'s shim)', () =>
    expect(machine({ name: 'volta', version: '2.0.1' }).family()).toBeUndefined())
  it('leaves a script outside the package\'s bin folder to yarn', () => expect(machine({ ...BERRY, folder: 'lib' }).family()).toBeUndefined())

  it('reads the real devDependencies as they are installed', () => {
    const bin = mkdtempSync(join(tmpdir(), 'resilient-yarn-variant-real-'))
    symlinkSync(join(NODE_MODULES, '@yarnpkg', 'cli-dist', 'bin', 'yarn.js'), join(bin, 'berry'))
    symlinkSync(join(NODE_MODULES, 'yarn', 'bin', 'yarn.js'), join(bin, 'classic'))
    const context = { args: [], env: {}, cwd: bin, home: bin }
    expect(yarnFamilyFromFiles(join(bin, 'berry'), context)).toBe('berry')
    expect(yarnFamilyFromFiles(join(bin, 'classic'), context)).toBe('classic')
  })

  it('answers as `yarn --version` does where package.json names the other yarn (the tool then refuses, not resilient)', () => {
    const { family, write, project } = machine(CLASSIC)
    write(join(project, 'package.json'), '{"packageManager":"yarn@4.9.1"}')
    expect(family()).toBe('classic')
  })
})

describe('where a yarnPath or a setting may hand over to another yarn, yarn is asked', () => {
  it('a .yarnrc.yml in the project naming yarnPath', () => {
    const { family, write, project } = machine(BERRY)
    write(join(project, '.yarnrc.yml'), 'yarnPath: .yarn/releases/yarn-1.22.22.cjs\n')
    expect(family()).toBeUndefined()
  })
  it('a .yarnrc in a parent folder (yarn 1 reads them all the way up)', () => {
    const { family, write, root, project } = machine(CLASSIC)
    write(join(root, '.yarnrc'), 'yarn-path "./yarn-4.cjs"\n')
    expect(family({ cwd: join(project, 'src') })).toBeUndefined()
  })
  it('the home folder\'s .yarnrc.yml and yarn 1\'s config file under ~/.config', () => {
    const first = machine(BERRY)
    first.write(join(first.home, '.yarnrc.yml'), 'yarnPath: /opt/yarn.cjs\n')
    expect(first.family()).toBeUndefined()
    const second = machine(CLASSIC)
    second.write(join(second.home, '.config', 'yarn', 'config'), 'yarn-path /opt/yarn.cjs\n')
    expect(second.family()).toBeUndefined()
  })
  it('a .yarnrc.yml with other settings only changes nothing', () => {
    const { family, write, project } = machine(BERRY)
    write(join(project, '.yarnrc.yml'), 'nodeLinker: node-modules\nenableTelemetry: false\n')
    expect(family()).toBe('berry')
  })
  it.each([['YARN_YARN_PATH', '/opt/yarn.cjs'], ['yarn_rc_filename', '.yarnrc.ci.yml'], ['COREPACK_ENABLE_STRICT', '0'], ['YARN_IGNORE_PATH', '1']])(
    'the variable %s', (name, value) => expect(machine(BERRY).family({ env: { [name]: value } })).toBeUndefined())
  it.each([['--cwd', 'sub'], ['--use-yarnrc', 'ci.yarnrc'], ['--no-default-rc']])('the option %s', (...args) =>
    expect(machine(CLASSIC).family({ args: ['install', ...args] })).toBeUndefined())
})

describe('corepack\'s yarn: the nearest package.json\'s packageManager', () => {
  const corepack = (manifest?: unknown) => {
    const setup = machine(COREPACK)
    if (manifest !== undefined) setup.write(join(setup.project, 'package.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest))
    return setup
  }
  it('is berry for yarn@4', () => expect(corepack({ packageManager: 'yarn@4.9.1' }).family()).toBe('berry'))
  it('is berry with an integrity suffix', () => expect(corepack({ packageManager: 'yarn@4.9.1+sha512.abc' }).family()).toBe('berry'))
  it('is yarn 1 for yarn@1', () => expect(corepack({ packageManager: 'yarn@1.22.22' }).family()).toBe('classic'))
  it('looks past a package.json without the field, as corepack does', () => {
    const { family, write, project } = corepack({ packageManager: 'yarn@4.9.1' })
    write(join(project, 'packages', 'app', 'package.json'), '{"name":"app"}')
    expect(family({ cwd: join(project, 'packages', 'app') })).toBe('berry')
  })
  it.each([
    ['no field anywhere (corepack\'s default decides)', { name: 'p' }],
    ['another tool', { packageManager: 'pnpm@9.0.0' }],
    ['a range', { packageManager: 'yarn@^4' }],
    ['devEngines', { packageManager: 'yarn@4.9.1', devEngines: { packageManager: { name: 'yarn', version: '1.x' } } }],
    ['a package.json corepack cannot parse', '{"packageManager": "yarn@4.9.1",'],
  ])('asks yarn for %s', (_, manifest) => expect(corepack(manifest).family()).toBeUndefined())
  it('asks yarn beside a .corepack.env, or inside node_modules', () => {
    const { family, write, project } = corepack({ packageManager: 'yarn@4.9.1' })
    write(join(project, 'node_modules', 'dep', 'package.json'), '{}')
    expect(family({ cwd: join(project, 'node_modules', 'dep') })).toBeUndefined()
    write(join(project, '.corepack.env'), 'COREPACK_ENABLE_PROJECT_SPEC=0\n')
    expect(family()).toBeUndefined()
  })
  it('leaves corepack\'s other shims alone', () => expect(machine({ ...COREPACK, script: 'pnpm.js' }).family()).toBeUndefined())
})

describe('the variant before a run', () => {
  it('starts no yarn where the files tell, and asks it where they do not', async () => {
    // The script would say 1.22.22: only the files can make it berry.
    const { bin, context, write, project, starts } = machine(BERRY, '1.22.22')
    expect((await resolveVariantCached(yarn, join(bin, 'yarn'), context())).name).toBe('yarn-berry')
    expect(starts()).toBe(0)
    write(join(project, '.yarnrc.yml'), 'yarnPath: .yarn/releases/yarn-1.22.22.cjs\n')
    expect((await resolveVariantCached(yarn, join(bin, 'yarn'), context())).name).toBe('yarn')
    expect(starts()).toBe(1)
  })
})
