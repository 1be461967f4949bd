import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { pnpmMajor, pnpmReadsFromNpmrc } from '../../../../src/tools/config/pnpm-major.js'
import { pnpm } from '../../../../src/tools/pnpm.js'
import { findUserKnobs } from '../../../../src/tools/knobs.js'
import { folderWith } from '../../../helpers/tool-cases.js'

const NODE_MODULES = fileURLToPath(new URL('../../../../node_modules/', import.meta.url))
const OTHER_MAJORS = fileURLToPath(new URL('../../../tools/node_modules/', import.meta.url))

/** A pnpm package as npm installs it, linked from a bin folder as `pnpm`; returns the link and a project folder. */
function installed(name: string, version: string, program = 'pnpm') {
  const root = folderWith({ [`lib/node_modules/${name}/package.json`]: JSON.stringify({ name, version }), 'project/package.json': '{}' })
  const file = join(root, 'lib', 'node_modules', name, program)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 })
  mkdirSync(join(root, 'bin'))
  symlinkSync(file, join(root, 'bin', 'pnpm'))
  return { executable: join(root, 'bin', 'pnpm'), project: join(root, 'project') }
}

describe('pnpm\'s major from the package its executable belongs to', () => {
  it.each([
    ['npm\'s pnpm 10 (bin/pnpm.cjs)', 'pnpm', '10.34.9', 'bin/pnpm.cjs', 10],
    ['@pnpm/exe 11 (a native pnpm at its root)', '@pnpm/exe', '11.28.6', 'pnpm', 11],
    ['npm\'s pnpm 12 (native)', 'pnpm', '12.26.0', 'pnpm', 12],
    ['a platform package', '@pnpm/linux-x64', '11.28.6', 'pnpm', 11],
    ['the executable build\'s platform package', '@pnpm/exe.linux-x64', '12.26.0', 'pnpm', 12],
  ])('%s', (_, name, version, program, major) => {
    const { executable, project } = installed(name, version, program)
    expect(pnpmMajor(executable, project)).toBe(major)
  })
  it.each([
    ['another package\'s program', 'volta', '2.0.1', 'pnpm'],
    ['a program pnpm does not ship', 'pnpm', '11.28.6', 'bin/wrapper'],
    ['a version it cannot read', 'pnpm', 'next', 'pnpm'],
  ])('not for %s', (_, name, version, program) => {
    const { executable, project } = installed(name, version, program)
    expect(pnpmMajor(executable, project)).toBeUndefined()
  })
  it('not without an executable, or for one that is not there', () => {
    expect(pnpmMajor(undefined, folderWith())).toBeUndefined()
    expect(pnpmMajor('/nonexistent/pnpm', folderWith())).toBeUndefined()
  })

  it('not where the project names another pnpm (pnpm switches to it) or has devEngines; a pnpm of the same major is fine', () => {
    const { executable, project } = installed('@pnpm/exe', '11.28.6')
    writeFileSync(join(project, 'package.json'), '{"packageManager":"pnpm@10.34.9"}')
    expect(pnpmMajor(executable, project)).toBeUndefined()
    writeFileSync(join(project, 'package.json'), '{"packageManager":"pnpm@11.1.0+sha512.abc"}')
    expect(pnpmMajor(executable, project)).toBe(11)
    writeFileSync(join(project, 'package.json'), '{"devEngines":{"packageManager":{"name":"pnpm","version":"^11"}}}')
    expect(pnpmMajor(executable, project)).toBeUndefined()
    // A parent's field counts too: pnpm reads the workspace root's manifest.
    writeFileSync(join(project, 'package.json'), '{}')
    writeFileSync(join(dirname(project), 'package.json'), '{"packageManager":"pnpm@10.0.0"}')
    expect(pnpmMajor(executable, project)).toBeUndefined()
  })

  it('reads the real pnpm 10, 11 and 12 as the tests install them', () => {
    const project = folderWith({ 'package.json': '{}' })
    expect(pnpmMajor(join(NODE_MODULES, '.bin', 'pnpm'), project)).toBe(10)
    for (const [path, major] of [['pnpm11/pnpm', 11], ['pnpm12/pnpm', 12]] as const) {
      if (existsSync(join(OTHER_MAJORS, path))) expect(pnpmMajor(join(OTHER_MAJORS, path), project)).toBe(major)
    }
  })
})

describe('what pnpm reads, by its major', () => {
  it('from .npmrc: every key up to 10 and when not known; registry, auth, certificates and proxies from 11', () => {
    for (const major of [undefined, 10]) expect(pnpmReadsFromNpmrc('fetch-timeout', major)).toBe(true)
    for (const key of ['registry', '@corp:registry', '//r.test/:_authToken', 'cafile', 'strict-ssl', 'https-proxy']) expect(pnpmReadsFromNpmrc(key, 11)).toBe(true)
    for (const key of ['fetch-timeout', 'fetch-retries', 'lockfile-include-tarball-url']) expect(pnpmReadsFromNpmrc(key, 12)).toBe(false)
  })

  const contexts = (env: NodeJS.ProcessEnv, files: Record<string, string> = {}) => {
    const eleven = installed('@pnpm/exe', '11.28.6')
    const ten = installed('pnpm', '10.34.9', 'bin/pnpm.cjs')
    for (const [name, content] of Object.entries(files)) for (const project of [eleven.project, ten.project]) writeFileSync(join(project, name), content)
    const context = (setup: typeof ten | undefined, project: string) => ({ args: ['install'], env, cwd: project, home: folderWith(), executable: setup?.executable })
    return { eleven: context(eleven, eleven.project), ten: context(ten, ten.project), unknown: context(undefined, ten.project) }
  }

  it('pnpm 11 is not given an npm_config_registry it ignores; pnpm 10 and an unknown pnpm are', () => {
    const { eleven, ten, unknown } = contexts({ npm_config_registry: 'https://n.test/' })
    expect(pnpm.findUserIndex(eleven)?.url).not.toBe('https://n.test/')
    expect(pnpm.findUserIndex(ten)?.url).toBe('https://n.test/')
    expect(pnpm.findUserIndex(unknown)?.url).toBe('https://n.test/')
    expect(pnpm.findUserIndex({ ...eleven, env: { pnpm_config_registry: 'https://p.test/' } })?.url).toBe('https://p.test/')
  })

  it('pnpm 11\'s read timeout is not taken from npm_config_fetch_timeout or .npmrc, but from pnpm-workspace.yaml', () => {
    const fromEnv = contexts({ npm_config_fetch_timeout: '1000' })
    expect(pnpm.relay!.readTimeoutMs(fromEnv.eleven)).toBe(60_000)
    expect(pnpm.relay!.readTimeoutMs(fromEnv.ten)).toBe(1000)
    const fromNpmrc = contexts({}, { '.npmrc': 'fetch-timeout=2000\n' })
    expect(pnpm.relay!.readTimeoutMs(fromNpmrc.eleven)).toBe(60_000)
    expect(pnpm.relay!.readTimeoutMs(fromNpmrc.ten)).toBe(2000)
    expect(pnpm.relay!.readTimeoutMs(fromNpmrc.unknown)).toBe(2000)
    expect(pnpm.relay!.readTimeoutMs(contexts({}, { 'pnpm-workspace.yaml': 'fetchTimeout: 3000\n' }).eleven)).toBe(3000)
    // What pnpm 11 does read from .npmrc is still read: strict-ssl, which keeps the relay from checking what pnpm does not.
    expect(pnpm.relay!.trust(contexts({}, { '.npmrc': 'strict-ssl=false\n' }).eleven).unverified).toEqual(['*'])
  })

  it('a fetch knob in .npmrc is the person\'s own for pnpm 10, not for pnpm 11', () => {
    const { eleven, ten } = contexts({}, { '.npmrc': 'fetch-retries=5\n' })
    expect(findUserKnobs(pnpm, ten).userSet).toBe(true)
    expect(findUserKnobs(pnpm, eleven).userSet).toBe(false)
  })
})
