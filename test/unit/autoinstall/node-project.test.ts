import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nodeInstall, nodeRemove, pipInstall, prunesUndeclared } from '../../../src/autoinstall/install-command.js'
import { TOOLS } from '../../../src/tools/index.js'
import type { ToolAdapter } from '../../../src/tools/types.js'
import { aliasPrefixes, findNodeProject, installedPackage } from '../../../src/autoinstall/node-project.js'

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'resilient-project-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

describe('findNodeProject', () => {
  it('knows each manager by the lockfiles and packageManager its adapter declares (ToolAdapter.nodeProject)', () => {
    for (const manager of ['npm', 'pnpm', 'yarn', 'yarn-berry', 'bun'] as const) {
      const project = TOOLS[manager].nodeProject
      for (const lockfile of project.lockfiles) {
        const root = tree({ 'package.json': '{}', [lockfile]: manager === 'yarn-berry' ? '__metadata:\n  version: 8\n' : '# lockfile\n' })
        expect(findNodeProject(root).manager, `${manager} ${lockfile}`).toBe(manager)
      }
      const version = manager === 'yarn-berry' ? '4.1.0' : manager === 'yarn' ? '1.22.22' : '9.0.0'
      const field = tree({ 'package.json': JSON.stringify({ packageManager: `${project.packageManager.name}@${version}` }) })
      expect(findNodeProject(field).manager, `${manager} packageManager`).toBe(manager)
    }
  })

  it('orders the managers and picks the default by adapter data: a tool\'s own lockfile beats a leftover package-lock.json', () => {
    const adapters = (Object.values(TOOLS) as ToolAdapter[]).filter(adapter => adapter.nodeProject)
    const ranks = adapters.map(adapter => adapter.nodeProject!.precedence)
    expect(new Set(ranks).size).toBe(ranks.length)
    expect(adapters.filter(adapter => adapter.nodeProject!.isDefault === true).map(adapter => adapter.name)).toEqual(['npm'])
    expect(findNodeProject(tree({ 'package.json': '{}', 'package-lock.json': '{}', 'pnpm-lock.yaml': '' })).manager).toBe('pnpm')
    expect(findNodeProject(tree({ 'package.json': '{}' }))).toMatchObject({ manager: 'npm', managerOrigin: 'no lockfile, so the default' })
  })

  it.each([
    ['package-lock.json', '{}', 'npm'], ['pnpm-lock.yaml', '', 'pnpm'], ['yarn.lock', '# yarn lockfile v1\n', 'yarn'],
    ['yarn.lock', '__metadata:\n  version: 8\n', 'yarn-berry'], ['bun.lock', '{}', 'bun'],
  ])('reads %s (%j) as %s', (lockfile, text, manager) => {
    const root = tree({ 'package.json': '{}', [lockfile]: text, 'src/app.js': '' })
    expect(findNodeProject(join(root, 'src'))).toMatchObject({ dir: root, manager })
  })

  it('prefers the packageManager field, and finds a workspace root lockfile above the package', () => {
    const root = tree({ 'package-lock.json': '{}', 'package.json': '{}', 'pkgs/a/package.json': '{"packageManager":"yarn@4.1.0"}' })
    expect(findNodeProject(join(root, 'pkgs/a'))).toMatchObject({ dir: join(root, 'pkgs/a'), manager: 'yarn-berry' })
    const plain = tree({ 'package-lock.json': '{}', 'package.json': '{}', 'pkgs/b/package.json': '{}' })
    expect(findNodeProject(join(plain, 'pkgs/b'))).toMatchObject({ dir: join(plain, 'pkgs/b'), manager: 'npm', managerOrigin: `the lockfile in ${plain}` })
  })
})

describe('installedPackage', () => {
  it('finds a package the way Node does, upwards, and checks its name', () => {
    const root = tree({ 'node_modules/lodash/package.json': '{"name":"lodash"}', 'node_modules/@s/p/package.json': '{"name":"@s/p"}', 'node_modules/liar/package.json': '{"name":"other"}', 'src/deep/x.js': '' })
    expect(installedPackage('lodash', join(root, 'src/deep'))).toBe(join(root, 'node_modules/lodash'))
    expect(installedPackage('@s/p', join(root, 'src'))).toBe(join(root, 'node_modules/@s/p'))
    expect(installedPackage('liar', root)).toBeUndefined()
    expect(installedPackage('chalk', root)).toBeUndefined()
  })
})

describe('aliasPrefixes', () => {
  it('reads tsconfig paths, comments and trailing commas included', () => {
    const root = tree({ 'tsconfig.json': '{\n  // aliases\n  "compilerOptions": { /* x */ "paths": { "@app/*": ["src/*"], "config": ["src/config.ts"], }, },\n}\n' })
    expect(aliasPrefixes(root)).toEqual(['@app/', 'config'])
    expect(aliasPrefixes(tree({}))).toEqual([])
  })
})

describe('install commands', () => {
  it('take wheels only, run no install scripts, and install every package of a run in one command', () => {
    expect(pipInstall('/v/bin/python', ['PyYAML==5.4.1', 'cv2-thing'])).toEqual(['/v/bin/python', '-m', 'pip', 'install', '--only-binary=:all:', '--no-input', 'PyYAML==5.4.1', 'cv2-thing'])
    // The pip adapter declares it, the script's interpreter starts it.
    expect(pipInstall('/py', ['x'])).toEqual(['/py', '-m', ...TOOLS.pip.scriptInstall.add(['x'])])
    expect(nodeInstall('npm', ['lodash', 'chalk@^5'])).toEqual(['npm', 'install', '--no-save', '--ignore-scripts', '--', 'lodash', 'chalk@^5'])
    expect(nodeInstall('pnpm', ['lodash'])).toEqual(['pnpm', 'add', '--ignore-scripts', '--', 'lodash'])
    expect(nodeInstall('yarn', ['lodash'])).toContain('--ignore-scripts')
    expect(nodeInstall('yarn-berry', ['lodash'])).toContain('--mode=skip-build')
    expect(nodeInstall('bun', ['lodash'])).toEqual(['bun', 'add', '--', 'lodash'])
  })

  it('never asks npm to uninstall (it would prune every undeclared package with it)', () => {
    expect(nodeRemove('npm', ['lodash'])).toBeUndefined()
    expect(nodeRemove('pnpm', ['lodash'])).toEqual(['pnpm', 'remove', 'lodash'])
  })

  it('come from the adapters (ToolAdapter.scriptInstall): only npm prunes undeclared packages, only npm has no remove', () => {
    for (const manager of ['npm', 'pnpm', 'yarn', 'yarn-berry', 'bun'] as const) {
      expect(nodeInstall(manager, ['x'])).toEqual(TOOLS[manager].scriptInstall.add(['x']))
      expect(prunesUndeclared(manager), manager).toBe(manager === 'npm')
      expect(nodeRemove(manager, ['x']) === undefined, manager).toBe(manager === 'npm')
    }
  })
})
