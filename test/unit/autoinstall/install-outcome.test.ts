import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeChanges, diffInstalled } from '../../../src/autoinstall/install-outcome.js'
import { listNodeModules, removeNodeModules, undeclaredPackages } from '../../../src/autoinstall/node-modules.js'
import type { Wanted } from '../../../src/autoinstall/types.js'

const wanted = (module: string, project: string): Wanted => ({ module: { ecosystem: 'python', reported: module, name: module, evidence: [] }, candidate: { tier: 'allowlist', package: project, why: '', verifyModule: module }, requirement: project })

describe('what an install changed', () => {
  it('tells added, already there and changed apart, names compared as PEP 503 does', () => {
    const changes = diffInstalled({ matplotlib: '3.9.0', Numpy: '1.26.0' }, { matplotlib: '3.9.0', numpy: '2.0.0', PyYAML: '6.0.2', idna: '3.7' })
    expect(changes).toEqual({ added: { PyYAML: '6.0.2', idna: '3.7' }, changed: { numpy: ['1.26.0', '2.0.0'] } })
    expect(describeChanges(changes, [wanted('yaml', 'pyyaml'), wanted('mpl_toolkits.basemap', 'matplotlib')])).toEqual([
      'installed pyyaml 6.0.2 (for "yaml")',
      'nothing installed for matplotlib: already installed',
      'with the dependencies idna 3.7',
      'the installer also changed numpy 1.26.0 → 2.0.0 (left as it is)',
    ])
  })
})

function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'resilient-nm-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

describe('node_modules', () => {
  const root = () => project({
    'package.json': JSON.stringify({ dependencies: { declared: '^1' } }),
    'node_modules/declared/package.json': JSON.stringify({ name: 'declared', version: '1.0.0', dependencies: { hoisted: '*' } }),
    'node_modules/hoisted/package.json': JSON.stringify({ name: 'hoisted', version: '2.0.0' }),
    'node_modules/lodash/package.json': JSON.stringify({ name: 'lodash', version: '4.17.21' }),
    'node_modules/@scope/own/package.json': JSON.stringify({ name: '@scope/own', version: '0.1.0' }),
    'node_modules/.package-lock.json': '{}',
  })

  it('lists the packages at the top, scoped ones too', () => {
    expect(Object.entries(listNodeModules(root()))).toEqual([['@scope/own', '0.1.0'], ['declared', '1.0.0'], ['hoisted', '2.0.0'], ['lodash', '4.17.21']])
  })

  it('names the packages an earlier --no-save install left, which npm would prune, at their versions', () => {
    expect(undeclaredPackages(root())).toEqual(['@scope/own@0.1.0', 'lodash@4.17.21'])
  })

  it('removes only the named packages, their dangling command links and npm\'s hidden lockfile', () => {
    const dir = root()
    mkdirSync(join(dir, 'node_modules/.bin'))
    symlinkSync('../lodash/cli.js', join(dir, 'node_modules/.bin/lodash'))
    writeFileSync(join(dir, 'node_modules/declared/cli.js'), '')
    symlinkSync('../declared/cli.js', join(dir, 'node_modules/.bin/declared'))
    removeNodeModules(dir, ['lodash'])
    expect(Object.keys(listNodeModules(dir))).toEqual(['@scope/own', 'declared', 'hoisted'])
    expect(existsSync(join(dir, 'node_modules/.bin/declared'))).toBe(true)
    expect(existsSync(join(dir, 'node_modules/.package-lock.json'))).toBe(false)
  })
})
