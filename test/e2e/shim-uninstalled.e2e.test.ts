import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { execa } from 'execa'
import { expect, it } from 'vitest'
import { buildWheel } from '../helpers/fake-pypi.js'
import { filesIn, pypiServers } from '../helpers/e2e-setup.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { command, describeNeeding } from '../helpers/requirements.js'

// Shims left on PATH after resilient itself was uninstalled (`npm uninstall --global resilient-install` before
// `resilient shim uninstall`): every shimmed command must still run the real tool, with one line saying why, never a
// Node stack trace.

const server = pypiServers({ wheels: [buildWheel('demo-pkg', '1.0')] })
const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** A copy of the built resilient (as npm installs it: bin/ and dist/), shims written by it, then the copy removed. */
async function shimsOfAnUninstalledResilient(tools: string[]): Promise<{ env: Record<string, string>; dir: string }> {
  const installed = mkdtempSync(join(tmpdir(), 'resilient-installed-'))
  for (const entry of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, entry), join(installed, entry), { recursive: true })
  const env = isolatedEnv({ SHELL: '/bin/bash' })
  const dir = join(env.HOME!, 'shims')
  mkdirSync(dir)
  const written = await execa(join(installed, 'bin', 'resilient'), ['shim', 'install', '--dir', dir, ...tools], { env, extendEnv: false, reject: false, all: true })
  expect(written.exitCode, written.all).toBe(0)
  rmSync(installed, { recursive: true, force: true })
  return { env: { ...env, PATH: `${dir}:${env.PATH}` }, dir }
}

describeNeeding(command('pip'), 'a shim whose resilient is gone', () => {
  it('`pip install` runs the real pip: its output and status, and one warning line', async () => {
    const index = await server()
    const { env, dir } = await shimsOfAnUninstalledResilient(['pip'])
    const target = mkdtempSync(join(tmpdir(), 'resilient-target-'))
    const args = ['install', '--no-deps', '--target', target, '--index-url', index.url, 'demo-pkg']
    const shimmed = await execa('pip', args, { env, extendEnv: false, reject: false })
    expect(shimmed.exitCode, shimmed.stderr).toBe(0)
    expect(filesIn(target)).toContain('demo_pkg')
    expect(shimmed.stdout).toContain('Successfully installed demo-pkg-1.0')
    expect(shimmed.stderr).not.toMatch(/node:internal|Error: Cannot find module|^\s+at /m)
    const ours = shimmed.stderr.split('\n').filter(line => line.startsWith('resilient shim:'))
    expect(ours).toEqual([`resilient shim: resilient is no longer installed here: running the real pip. To remove the shims: rm -r '${dir}', and the PATH line naming it in your shell profile.`])
  }, 60_000)

  it('a failing `pip install` ends with the real pip\'s status, and `pip --version` says nothing of resilient\'s', async () => {
    const index = await server({ fault: { kind: 'status', status: 404 } })
    const { env } = await shimsOfAnUninstalledResilient(['pip'])
    const plain = await execa('pip', ['install', '--index-url', index.url, 'no-such-pkg'], { env: isolatedEnv(), extendEnv: false, reject: false })
    const shimmed = await execa('pip', ['install', '--index-url', index.url, 'no-such-pkg'], { env, extendEnv: false, reject: false })
    expect(shimmed.exitCode).toBe(plain.exitCode)
    expect(shimmed.exitCode).not.toBe(0)
    expect(shimmed.stderr.split('\n').filter(line => line.startsWith('resilient shim:'))).toHaveLength(1)
    const version = await execa('pip', ['--version'], { env, extendEnv: false, reject: false })
    expect(version.exitCode).toBe(0)
    expect(version.stderr).toBe('')
  }, 60_000)
})
