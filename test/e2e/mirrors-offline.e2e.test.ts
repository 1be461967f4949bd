import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildWheel, startPypiServer, type PypiServer } from '../helpers/fake-pypi.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'

// Offline mode with the real pip: only the wheelhouse is read; the configured index must see no request.
const servers: PypiServer[] = []
afterEach(async () => { await Promise.all(servers.splice(0).map(server => server.close())) })

async function setup(config: (index: string, wheelhouse: string) => unknown) {
  const wheel = buildWheel('demo-pkg', '1.0')
  const index = await startPypiServer({ wheels: [wheel] })
  servers.push(index)
  const cwd = projectWithConfig({})
  const wheelhouse = join(cwd, 'wheels')
  mkdirSync(wheelhouse)
  writeFileSync(join(wheelhouse, wheel.filename), wheel.bytes)
  writeFileSync(join(cwd, '.resilientrc.json'), JSON.stringify(config(index.url, 'wheels')))
  return { index, cwd, wheelhouse, dest: mkdtempSync(join(tmpdir(), 'resilient-dl-')) }
}

describe('offline mode (real pip)', () => {
  it('installs from the wheelhouse only, with --no-index --find-links, contacting no index', async () => {
    const { index, cwd, wheelhouse, dest } = await setup((url, dir) => ({ pypi: { index: url, wheelhouse: dir } }))
    const planned = await runCli(['--offline', '--dry-run', 'python3', '-m', 'pip', 'download', 'demo-pkg'], { cwd })
    expect(planned.stdout.trim().split('\n')).toEqual([`python3 -m pip download demo-pkg --no-index --find-links ${wheelhouse}`])
    const result = await runCli(['--offline', 'python3', '-m', 'pip', 'download', '--no-deps', '-d', dest, 'demo-pkg'], { cwd })
    expect(result.exitCode, result.all).toBe(0)
    expect(readdirSync(dest)).toEqual(['demo_pkg-1.0-py3-none-any.whl'])
    expect(index.requests).toEqual([])
  })

  it('names where it looked when the package is not in the wheelhouse', async () => {
    const { index, cwd, wheelhouse, dest } = await setup((url, dir) => ({ offline: true, pypi: { index: url, wheelhouse: dir } }))
    const result = await runCli(['python3', '-m', 'pip', 'download', '--no-deps', '-d', dest, 'absent-pkg'], { cwd })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(`offline: looked only in the wheelhouse ${wheelhouse}`)
    expect(index.requests).toEqual([])
  })

  it('stops with exit 78 when no wheelhouse is configured, naming where it looked', async () => {
    const { cwd } = await setup(url => ({ pypi: { index: url } }))
    const result = await runCli(['--offline', 'python3', '-m', 'pip', 'download', 'demo-pkg'], { cwd })
    expect(result.exitCode).toBe(78)
    expect(result.stderr).toMatch(/Offline mode: pip can install only from a local wheelhouse, and none is configured \(looked for "pypi\.wheelhouse" in .*\.resilientrc\.json, RESILIENT_PYPI_WHEELHOUSE; user config .*config\.json\)/)
  })

  it('leaves read-only commands alone', async () => {
    const { cwd } = await setup((url, dir) => ({ offline: true, pypi: { index: url, wheelhouse: dir } }))
    const planned = await runCli(['--dry-run', 'python3', '-m', 'pip', 'list'], { cwd })
    expect(planned.stdout.trim()).toBe('python3 -m pip list')
  })
})
