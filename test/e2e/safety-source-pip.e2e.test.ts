import { execa } from 'execa'
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { itNeeding, PYENV, pyenvInstalled } from '../helpers/requirements.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'

// resilient decides from the source pip really uses, and where it cannot know it, treats it as private. A private
// index (or no index at all) fails; a public mirror, a local server standing in for one, carries a look-alike
// `privpkg 9.9.9`. The mirror must receive no request at all: no attempt, no probe with the package's name.
const server = pypiServers()
const LOOK_ALIKE = [buildWheel('privpkg', '9.9.9')]
const dest = () => mkdtempSync(join(tmpdir(), 'resilient-dl-'))

/**
 * An interpreter of its own whose site config, `<sys.prefix>/pip.conf`, names `index`: a virtual environment on the
 * machine's python3 (its pip through the system site packages, so no pip is installed), with the `bin/pip` script
 * pip itself would write.
 */
async function pythonWithSiteIndex(prefix: string, index: string): Promise<void> {
  await execa('python3', ['-m', 'venv', '--without-pip', '--system-site-packages', prefix], { env: isolatedEnv() })
  writeFileSync(join(prefix, 'bin', 'pip'), `#!${join(prefix, 'bin', 'python')}\nimport sys\nfrom pip._internal.cli.main import main\nsys.exit(main())\n`, { mode: 0o755 })
  writeFileSync(join(prefix, 'pip.conf'), `[global]\nindex-url = ${index}\n`)
}

/** The person's environment: no PIP_CONFIG_FILE (pip reads its files), no global pip.conf of this machine's. */
function envWithPath(path: string, extra: Record<string, string> = {}): Record<string, string> {
  const { PIP_CONFIG_FILE: _, ...env } = isolatedEnv({ XDG_CONFIG_DIRS: mkdtempSync(join(tmpdir(), 'resilient-xdg-')), ...extra })
  return { ...env, PATH: `${path}:${env.PATH}` }
}


describe('real pip: the source pip resolves', () => {
  it('pip.conf no-index with find-links: no mirror switch, no probe of a public index', async () => {
    const mirror = await server({ wheels: LOOK_ALIKE })
    const cwd = projectWithConfig({ pypi: { mirrors: [mirror.url] }, maxAttempts: 3, maxWaitSeconds: 1 })
    const wheels = join(cwd, 'wheels')
    mkdirSync(wheels)
    const conf = join(cwd, 'pip.conf')
    writeFileSync(conf, `[global]\nno-index = true\nfind-links = ${wheels}\n`)
    const result = await runCli(['-v', 'python3', '-m', 'pip', 'download', '--no-deps', '-d', dest(), 'privpkg'], { cwd, env: isolatedEnv({ PIP_CONFIG_FILE: conf }) })
    expect(result.exitCode, result.all).not.toBe(0)
    expect(mirror.requests, result.all).toEqual([])
    expect(result.stderr).toMatch(/No matching distribution found for privpkg/)
    expect(result.stderr).not.toMatch(/switching to|on mirror|resilient asked/)
    expect(result.stderr).toMatch(/no mirror will be used: the command uses a local index \(.*pip\.conf \[global\] no-index\)/)
  }, 60_000)

  it('another path on the declared index\'s host is another index: pip -i .../team-private/simple keeps no mirror', async () => {
    // One server, one host and port: the declared public repository and the team's private one differ by path only.
    const artifactory = await server({ wheels: [], fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels: LOOK_ALIKE })
    const base = artifactory.url.replace(/simple$/, '')
    const cwd = projectWithConfig({ pypi: { index: `${base}api/pypi/pypi-remote/simple`, mirrors: [mirror.url] }, maxAttempts: 2, maxWaitSeconds: 1 })
    const result = await runCli(['python3', '-m', 'pip', 'download', '--no-deps', '-d', dest(), '-i', `${base}api/pypi/team-private/simple`, 'corp-secret-lib'], { cwd, env: isolatedEnv() })
    expect(result.exitCode, result.all).not.toBe(0)
    expect(artifactory.requests.some(path => path.startsWith('/api/pypi/team-private/simple/corp-secret-lib')), result.all).toBe(true)
    expect(mirror.requests, result.all).toEqual([])
  }, 60_000)

  // How most developers run pip: a pyenv shim on PATH that picks the interpreter at run time, whose own pip.conf
  // names the private index. resilient follows the shim through pyenv's version files to that interpreter (no pip
  // start), reads its pip.conf, and keeps to the private index.
  itNeeding(pyenvInstalled, 'pyenv: the interpreter\'s own pip.conf behind a `pyenv exec` shim', async () => {
    const priv = await server({ wheels: [], fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels: LOOK_ALIKE })
    const cwd = projectWithConfig({ pypi: { mirrors: [mirror.url] }, maxAttempts: 3, maxWaitSeconds: 1 })
    const root = mkdtempSync(join(tmpdir(), 'resilient-pyenv-'))
    await pythonWithSiteIndex(join(root, 'versions', 'corp'), priv.url)
    mkdirSync(join(root, 'shims'))
    // pyenv's own shim (pyenv-rehash writes this), for this root.
    writeFileSync(join(root, 'shims', 'pip'), `#!/usr/bin/env bash\nset -e\nprogram="\${0##*/}"\nexport PYENV_ROOT="${root}"\nexec "${PYENV}" exec "$program" "$@"\n`)
    chmodSync(join(root, 'shims', 'pip'), 0o755)
    const env = envWithPath(join(root, 'shims'), { PYENV_ROOT: root, PYENV_VERSION: 'corp' })
    const result = await runCli(['-v', 'pip', 'download', '--no-deps', '-d', dest(), 'privpkg'], { cwd, env })
    expect(result.exitCode, result.all).not.toBe(0)
    expect(mirror.requests, result.all).toEqual([])
    expect(priv.requests.some(path => path.startsWith('/simple/privpkg')), result.all).toBe(true)
    expect(result.stderr).toMatch(/no mirror will be used: 127\.0\.0\.1:\d+ \(\S+\/versions\/corp\/pip\.conf \[global\] index-url\) is not a public index known to resilient, so installs are never sent elsewhere/)
    expect(result.stderr).not.toMatch(/pip says|pypi\.org|on mirror/)
  }, 120_000)

  it('any launcher that picks its Python at run time (an asdf-style shell shim): the same', async () => {
    const priv = await server({ wheels: [], fault: { kind: 'status', status: 503 } })
    const mirror = await server({ wheels: LOOK_ALIKE })
    const cwd = projectWithConfig({ pypi: { mirrors: [mirror.url] }, maxAttempts: 3, maxWaitSeconds: 1 })
    const root = mkdtempSync(join(tmpdir(), 'resilient-shim-'))
    await pythonWithSiteIndex(join(root, 'installs', 'python'), priv.url)
    mkdirSync(join(root, 'shims'))
    writeFileSync(join(root, 'shims', 'pip'), `#!/bin/sh\nexec "${join(root, 'installs', 'python', 'bin', 'pip')}" "$@"\n`, { mode: 0o755 })
    const result = await runCli(['pip', 'download', '--no-deps', '-d', dest(), 'privpkg'], { cwd, env: envWithPath(join(root, 'shims')) })
    expect(result.exitCode, result.all).not.toBe(0)
    expect(mirror.requests, result.all).toEqual([])
    expect(result.stderr).toMatch(/pip says: 127\.0\.0\.1:\d+ \(pip config list: global\.index-url\)/)
  }, 120_000)
})
