import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { beforeAll, describe, expect, it } from 'vitest'
import { listDistributions, pipUninstallWithoutSite, verifyProvides } from '../../../src/autoinstall/python-installed.js'
import { askPythonEnvironment } from '../../../src/autoinstall/python-probe.js'

// A real venv (no pip of its own: it sees the machine's through --system-site-packages) holding a hand-made
// distribution whose .pth file writes a marker whenever it runs. The checks must never make it run.
let python: string
let site: string
let paths: string[]
let marker: string

function installFake(name: string, files: Record<string, string>): void {
  const distInfo = join(site, `${name}-1.0.dist-info`)
  mkdirSync(distInfo, { recursive: true })
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(site, path, '..'), { recursive: true })
    writeFileSync(join(site, path), text)
  }
  writeFileSync(join(distInfo, 'METADATA'), `Metadata-Version: 2.1\nName: ${name}\nVersion: 1.0\n`)
  writeFileSync(join(distInfo, 'INSTALLER'), 'pip\n')
  const record = [...Object.keys(files), `${name}-1.0.dist-info/METADATA`, `${name}-1.0.dist-info/INSTALLER`, `${name}-1.0.dist-info/RECORD`].map(path => `${path},,`)
  writeFileSync(join(distInfo, 'RECORD'), `${record.join('\n')}\n`)
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'resilient-installed-'))
  await execa('python3', ['-m', 'venv', '--without-pip', '--system-site-packages', join(dir, 'venv')])
  python = join(dir, 'venv/bin/python')
  const environment = await askPythonEnvironment(python)
  paths = environment!.paths
  site = join(dir, 'venv/lib', `python${environment!.version.join('.')}`, 'site-packages')
  marker = join(dir, 'pth-ran')
  installFake('shady', { 'shady/__init__.py': '', 'shady.pth': `import os; open(${JSON.stringify(marker)}, 'w').close()\n` })
  installFake('provider', { 'realname/__init__.py': '' })
}, 60_000)

describe('the checks after an install', () => {
  it('would have run the .pth file in a normal start (the control)', async () => {
    await execa(python, ['-c', 'pass'])
    expect(existsSync(marker)).toBe(true)
  })

  it('list distributions, prove where a module comes from, and never run a .pth file', async () => {
    const { rmSync } = await import('node:fs')
    rmSync(marker, { force: true })
    expect(await listDistributions(python, paths)).toMatchObject({ shady: '1.0', provider: '1.0' })
    expect(await verifyProvides(python, paths, 'shady', 'shady')).toMatchObject({ ok: true })
    expect(await verifyProvides(python, paths, 'provider', 'realname')).toMatchObject({ ok: true })
    expect(await verifyProvides(python, paths, 'provider', 'shady')).toMatchObject({ ok: false, owners: ['shady'] })
    expect(await verifyProvides(python, paths, 'nothere', 'shady')).toMatchObject({ ok: false })
    expect(existsSync(marker)).toBe(false)
  })

  it('finds a module by its path inside another package (distutils in setuptools)', async () => {
    installFake('tools', { 'tools/__init__.py': '', 'tools/_inner/__init__.py': '' })
    expect(await verifyProvides(python, paths, 'tools', 'tools._inner')).toMatchObject({ ok: true })
    expect(await verifyProvides(python, paths, 'tools', 'tools._missing')).toMatchObject({ ok: false })
  })

  it('uninstall exactly what is named, without site.py', async () => {
    const { rmSync } = await import('node:fs')
    rmSync(marker, { force: true })
    const [program, ...args] = pipUninstallWithoutSite(python, paths, ['shady'])
    const result = await execa(program!, args, { reject: false })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(existsSync(join(site, 'shady.pth'))).toBe(false)
    expect(existsSync(marker)).toBe(false)
    expect(await listDistributions(python, paths)).toHaveProperty('provider')
  })
})
