import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { installShims, isResilientShim, uninstallShims } from '../../../src/shims/install.js'
import { defaultShimDirectory, isShimDirectory, pathWithoutShims, readShimManifest, shimDirectoriesOnPath } from '../../../src/shims/shim-dir.js'
import { isKnownExecutable, knownToolNames } from '../../../src/shims/tool-names.js'
import { TOOLS } from '../../../src/tools/index.js'
import type { ToolAdapter } from '../../../src/tools/types.js'

const request = (dir: string, tools: string[]) => ({ dir, tools, node: '/usr/bin/node', cli: '/opt/resilient/bin/resilient.js', resilientVersion: '1.0.0' })
const temp = () => mkdtempSync(join(tmpdir(), 'resilient-shims-'))

describe('installShims / uninstallShims', () => {
  it('writes executable shims and a manifest', () => {
    const dir = join(temp(), 'shims')
    expect(installShims(request(dir, ['pip', 'pip3']))).toEqual({ written: ['pip', 'pip3'], refused: [] })
    expect(statSync(join(dir, 'pip')).mode & 0o111).toBe(0o111)
    expect(isResilientShim(join(dir, 'pip'))).toBe(true)
    expect(readShimManifest(dir)).toEqual({ tools: ['pip', 'pip3'], node: '/usr/bin/node', cli: '/opt/resilient/bin/resilient.js', resilientVersion: '1.0.0' })
  })

  it('never overwrites a file it did not write', () => {
    const dir = temp()
    writeFileSync(join(dir, 'pip'), '#!/bin/sh\necho mine\n')
    expect(installShims(request(dir, ['pip', 'npm']))).toEqual({ written: ['npm'], refused: [join(dir, 'pip')] })
    expect(readFileSync(join(dir, 'pip'), 'utf8')).toContain('echo mine')
  })

  it('rewrites its own shims and adds to the manifest', () => {
    const dir = temp()
    installShims(request(dir, ['pip']))
    installShims({ ...request(dir, ['pip', 'npm']), cli: '/new/resilient.js' })
    expect(readFileSync(join(dir, 'pip'), 'utf8')).toContain("'/new/resilient.js'")
    expect(readShimManifest(dir)?.tools).toEqual(['npm', 'pip'])
  })

  it('removes the named shims and keeps the rest', () => {
    const dir = temp()
    installShims(request(dir, ['pip', 'npm']))
    expect(uninstallShims(dir, ['npm'])).toEqual({ removed: ['npm'], directoryRemoved: false })
    expect(readShimManifest(dir)?.tools).toEqual(['pip'])
  })

  it('removes everything, then the directory, but never a foreign file', () => {
    const root = temp()
    const dir = join(root, 'shims')
    installShims(request(dir, ['pip']))
    expect(uninstallShims(dir)).toEqual({ removed: ['pip'], directoryRemoved: true })
    expect(existsSync(dir)).toBe(false)
    mkdirSync(dir)
    writeFileSync(join(dir, 'npm'), 'mine')
    expect(uninstallShims(dir, ['npm']).removed).toEqual([])
    expect(existsSync(join(dir, 'npm'))).toBe(true)
  })
})

describe('shim directories', () => {
  it('default to the XDG data directory', () => {
    expect(defaultShimDirectory({ HOME: '/home/me' })).toBe('/home/me/.local/share/resilient/shims')
    expect(defaultShimDirectory({ HOME: '/home/me', XDG_DATA_HOME: '/data' })).toBe('/data/resilient/shims')
  })

  it('are recognised by their manifest and taken off PATH', () => {
    const dir = temp()
    installShims(request(dir, ['pip']))
    expect(isShimDirectory(dir)).toBe(true)
    expect(pathWithoutShims(`${dir}:/usr/bin::/bin`)).toBe('/usr/bin::/bin')
    expect(shimDirectoriesOnPath(`/usr/bin:${dir}`)).toEqual([dir])
  })
})

describe('tool names', () => {
  it('only offers tools resilient has an adapter for', () => {
    expect(isKnownExecutable('pip')).toBe(true)
    expect(isKnownExecutable('pip3')).toBe(true)
    expect(isKnownExecutable('ls')).toBe(false)
    expect(knownToolNames()).toContain('pip')
    expect(knownToolNames().every(isKnownExecutable)).toBe(true)
  })

  it('takes the names from the adapters (ToolAdapter.shimNames), each one started by its own adapter', () => {
    const adapters = Object.values(TOOLS) as ToolAdapter[]
    expect(knownToolNames()).toEqual(adapters.flatMap(adapter => adapter.shimNames ?? []))
    for (const adapter of adapters) for (const name of adapter.shimNames ?? []) expect(adapter.executables.test(name), name).toBe(true)
    expect(adapters.filter(adapter => !adapter.shimNames).map(adapter => adapter.name)).toEqual(['yarn-berry'])
  })
})
