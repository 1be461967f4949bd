import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { withRelay } from '../../../../src/plan/relay.js'
import { pdm } from '../../../../src/tools/pdm.js'
import { installedPdmVersion } from '../../../../src/tools/config/pdm-version.js'
import { planIn } from '../../../helpers/plan-helpers.js'

/** A pdm installed in a venv as pipx or `pip install` leave it: bin/pdm starting bin/python, the dist-info in lib. */
function venvPdm(version: string, shebang?: string): string {
  const venv = mkdtempSync(join(tmpdir(), 'resilient-pdm-venv-'))
  mkdirSync(join(venv, 'bin'))
  mkdirSync(join(venv, 'lib', 'python3.11', 'site-packages', `pdm-${version}.dist-info`), { recursive: true })
  symlinkSync('/usr/bin/python3', join(venv, 'bin', 'python'))
  writeFileSync(join(venv, 'bin', 'pdm'), `#!${shebang ?? join(venv, 'bin', 'python')}\nfrom pdm.core import main\nmain()\n`)
  return join(venv, 'bin', 'pdm')
}

function project(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'resilient-pdm-project-'))
  writeFileSync(join(dir, 'pyproject.toml'), '[project]\nname = "p"\nversion = "0"\n' + (files.extra ?? ''))
  for (const [name, content] of Object.entries(files)) if (name !== 'extra') writeFileSync(join(dir, name), content)
  return dir
}

const throughRelay = (args: string, options: { executable: string; cwd?: string; env?: NodeJS.ProcessEnv }) => {
  const cwd = options.cwd ?? project()
  const context = { args: args.split(' '), env: options.env ?? {}, cwd, home: cwd, executable: options.executable }
  const unsupported = pdm.relay!.unsupportedIn!(context)
  return withRelay(planIn(pdm, args, cwd, {}, { env: options.env ?? {} }), {
    enabled: true, address: () => ({ host: '127.9.8.7', port: 21_000, secret: 's'.repeat(43) }), trust: pdm.relay!.trust(context),
    secrets: { scratch: { path: cwd }, env: {} }, ...(unsupported && { unsupported }),
  })
}

describe('pdm through the relay', () => {
  it('reads the installed version from the dist-info beside the interpreter its script starts', () => {
    expect(installedPdmVersion(venvPdm('2.19.1'))).toEqual([2, 19])
    expect(installedPdmVersion(venvPdm('2.2.1'))).toEqual([2, 2])
    expect(installedPdmVersion(venvPdm('2.19.1', '/usr/bin/env python3'))).toBeUndefined()
    expect(installedPdmVersion('/nonexistent/pdm')).toBeUndefined()
  })

  it('pdm 2.8+ locks through it, pointed by PDM_PYPI_URL, the secret in a netrc', () => {
    const plan = throughRelay('lock', { executable: venvPdm('2.19.1') })
    const { command } = plan.attempts[0]!
    expect(plan.relay).toBeDefined()
    expect(command.argv).toEqual(['pdm', 'lock'])
    expect(command.env.PDM_PYPI_URL).toBe('http://127.9.8.7:21000/simple/')
    expect(command.env.NETRC).toBe(command.files![0]!.path)
    expect(command.files![0]!.content).toContain(`machine 127.9.8.7 login resilient password ${'s'.repeat(43)}`)
  })

  it.each([
    ['lock', { version: '2.2.1' }, /pdm 2\.2 records download URLs in pdm\.lock/],
    ['add requests', { version: '2.7.4' }, /pdm 2\.7 records download URLs/],
    ['lock', { version: '2.19.1', shebang: '/usr/bin/env python3' }, /version is not known/],
    ['lock --static-urls', { version: '2.19.1' }, /static URLs/],
    ['lock -S inherit_metadata,static_urls', { version: '2.19.1' }, /static URLs/],
    ['update', { version: '2.19.1', lock: '[metadata.files]\n"demo 1.0" = [\n    {url = "https://files.pythonhosted.org/packages/demo-1.0.whl", hash = "sha256:00"},\n]\n' }, /pdm\.lock records download URLs/],
    ['lock', { version: '2.19.1', env: { PDM_PYPI_USERNAME: 'me' } }, /sends credentials .*PDM_PYPI_USERNAME/],
    ['lock', { version: '2.19.1', toml: '[pypi]\nverify_ssl = false\n' }, /does not verify TLS/],
    ['lock', { version: '2.19.1', toml: '[pypi]\nclient_cert = "/me.pem"\n' }, /client certificate/],
    ['search requests', { version: '2.19.1' }, /does not read the index's pages/],
    ['lock', { version: '2.19.1', env: { PDM_USE_UV: 'true' } }, /use_uv/],
    ['sync', { version: '2.19.1', toml: 'use_uv = true\n' }, /use_uv/],
  ])('not for pdm %s %j', (args, setup: { version: string; shebang?: string; lock?: string; env?: NodeJS.ProcessEnv; toml?: string }, reason) => {
    const cwd = project({ ...(setup.lock && { 'pdm.lock': setup.lock }), ...(setup.toml && { 'pdm.toml': setup.toml }) })
    const plan = throughRelay(args, { executable: venvPdm(setup.version, setup.shebang), cwd, ...(setup.env && { env: setup.env }) })
    expect(plan.relay).toBeUndefined()
    expect(plan.noRelayReason).toMatch(reason)
  })

  it('sync reads a lockfile without URLs and writes none: through the relay whatever the version', () => {
    expect(throughRelay('sync', { executable: venvPdm('2.2.1') }).relay).toBeDefined()
  })

  it('a source of the project\'s own beside PyPI keeps every page on the index, and no attempt on a mirror', () => {
    const cwd = project({ extra: '[[tool.pdm.source]]\nname = "corp"\nurl = "https://pypi.corp.example/simple"\n' })
    const plan = throughRelay('lock', { executable: venvPdm('2.19.1'), cwd })
    expect(plan.relay!.pages.failover).toBe(false)
    expect(plan.attempts).toHaveLength(1)
  })

  it('reads pdm\'s own read timeout', () => {
    const cwd = project()
    expect(pdm.relay!.readTimeoutMs({ args: ['lock'], env: { PDM_REQUEST_TIMEOUT: '40' }, cwd, home: cwd })).toBe(40_000)
    expect(pdm.relay!.readTimeoutMs({ args: ['lock'], env: {}, cwd, home: cwd })).toBe(15_000)
  })
})
