import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildWheel, startPypiServer, type PypiServer } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { copyVenv, distributions, projectDir, projectRequests, runScript, venvTemplate } from '../helpers/run-helpers.js'
import { itNeeding, pyenvPython } from '../helpers/requirements.js'

// `resilient run` with real Python scripts in real venvs, installing from a local PEP 503 index through the built
// CLI (npm run build first). The wheels carry the real project names of the reviewed list (PyYAML provides yaml).
let index: PypiServer
let template: string

beforeAll(async () => {
  index = await startPypiServer({
    wheels: [
      buildWheel('PyYAML', '6.0.2', { module: 'yaml' }),
      buildWheel('protobuf', '5.29.0', { module: 'google.protobuf' }),
      buildWheel('python-dateutil', '2.9.0', { module: 'dateutil' }),
      buildWheel('opencv-python', '4.10.0', { module: 'cv2' }),
      buildWheel('humanize', '4.11.0'),
      buildWheel('request', '0.0.1'),
    ],
  })
  template = await venvTemplate()
}, 180_000)

afterAll(() => index?.close())

const config = () => ({ pypi: { index: index.url, mirrors: [] } })

describe('resilient run with Python', () => {
  it('installs a reviewed module into the venv the script runs in, with --yes, and runs it again', async () => {
    const venv = copyVenv(template)
    const cwd = projectDir({ 'app.py': 'import yaml\nprint("loaded", yaml.NAME)\n' }, config())
    const result = await runScript(cwd, ['--yes', '--', join(venv, 'bin/python'), 'app.py'])
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stdout).toBe('loaded PyYAML')
    expect(result.stderr).toMatch(/ModuleNotFoundError: No module named 'yaml'/)
    expect(result.stderr).toMatch(/installed PyYAML 6\.0\.2 \(for "yaml"\)[\s\S]*running the command again from the start/)
    expect(result.stderr).toMatch(/resilient: auto-installed PyYAML 6\.0\.2 \(for "yaml", into .*venv\/bin\/python\)\. Add PyYAML to the project's requirements/)
    expect(await distributions(join(venv, 'bin/python'))).toContain('PyYAML')
    const report = result.report()
    expect(report).toMatchObject({ exitCode: 0, runs: 2, autoInstalled: [{ module: 'yaml', package: 'PyYAML', version: '6.0.2', tier: 'allowlist', consent: 'yes-flag' }] })
    expect(report.installs[0]!.attempts[0]!.command).toEqual(expect.arrayContaining(['-m', 'pip', 'install', '--only-binary=:all:', 'PyYAML', '--index-url', index.url]))
    const record = JSON.parse(readFileSync(join(result.env.RESILIENT_STATE_DIR!, 'auto-installed.json'), 'utf8'))
    expect(record.entries).toEqual([expect.objectContaining({ module: 'yaml', package: 'PyYAML', version: '6.0.2', environment: join(venv, 'bin/python'), cwd })])
  })

  it('scans once, installs every missing import in one command, and runs the script again once', async () => {
    const venv = copyVenv(template)
    const cwd = projectDir({
      'app.py': 'import google.protobuf\nimport helpers\nprint(google.protobuf.NAME, helpers.NAME)\n',
      'helpers.py': 'import dateutil\nNAME = dateutil.NAME\n',
      'ledger.py': '',
    }, config())
    const result = await runScript(cwd, ['--yes', '--', join(venv, 'bin/python'), 'app.py'])
    expect(result.exitCode, result.all).toBe(0)
    expect(result.report().autoInstalled.map(entry => [entry.module, entry.package])).toEqual([['google.protobuf', 'protobuf'], ['dateutil', 'python-dateutil']])
    expect(result.report().runs).toBe(2)
    expect(result.report().installs).toHaveLength(1)
    expect(result.stdout).toBe('protobuf python-dateutil')
  })

  it('runs the environment of a console script\'s shebang (pytest), and reads pytest\'s collection error', async () => {
    // A venv that sees the machine's pytest (system site-packages), with the console script pip would write.
    const venv = join(mkdtempSync(join(tmpdir(), 'resilient-venv-')), 'venv')
    await execa('python3', ['-m', 'venv', '--without-pip', '--system-site-packages', venv], { env: isolatedEnv() })
    writeFileSync(join(venv, 'bin/pytest'), `#!${join(venv, 'bin/python')}\nimport sys\nfrom pytest import console_main\nsys.exit(console_main())\n`)
    chmodSync(join(venv, 'bin/pytest'), 0o755)
    const cwd = projectDir({ 'test_cv.py': 'import cv2\n\ndef test_cv():\n    assert cv2.NAME == "opencv-python"\n' }, config())
    const result = await runScript(cwd, ['--yes', '--', join(venv, 'bin/pytest'), '-q', '-p', 'no:cacheprovider', 'test_cv.py'])
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stdout).toMatch(/1 passed/)
    expect(result.report().autoInstalled).toMatchObject([{ module: 'cv2', package: 'opencv-python', environment: join(venv, 'bin/python') }])
    expect(await distributions(join(venv, 'bin/python'))).toContain('opencv-python')
  })

  it('installs nothing without a terminal unless --yes, and exits with the script\'s own status', async () => {
    const venv = copyVenv(template)
    const before = projectRequests(index).length
    const cwd = projectDir({ 'app.py': 'import yaml\n' }, config())
    const result = await runScript(cwd, ['--', join(venv, 'bin/python'), 'app.py'])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(/nothing was installed: there is no terminal to ask in: add --yes/)
    expect(result.stderr).toMatch(/To install it yourself: .*venv\/bin\/python -m pip install --only-binary=:all: --no-input PyYAML/)
    expect(result.report()).toMatchObject({ exitCode: 1, runs: 1, autoInstalled: [] })
    expect(projectRequests(index).length).toBe(before)
    expect(await distributions(join(venv, 'bin/python'))).not.toContain('PyYAML')
  })

  it.each([
    ['an unreviewed name, even with --yes (the script\'s own status)', 'import humanize\n', /--yes covers reviewed names only/, 1],
    ['a known squat', 'import request\n', /typo of "requests"[\s\S]*Did you mean requests\?/, 1],
    ['a relative import', 'from . import helper\n', /relative import failed/, 1],
    ['a private module', 'import _speedups_missing\n', /private module/, 1],
    ['a local module name', 'import utils\n', /path problem/, 1],
    ['a Python 2 name', 'import urllib2\n', /Python 2 standard-library module; Python 3 calls it urllib\.request/, 1],
  ])('installs nothing for %s', async (_, script, message, exitCode) => {
    const venv = copyVenv(template)
    const before = projectRequests(index).length
    const cwd = projectDir({ 'app.py': script }, config())
    const result = await runScript(cwd, ['--yes', '--', join(venv, 'bin/python'), 'app.py'])
    expect(result.exitCode).toBe(exitCode)
    expect(result.stderr).toMatch(message)
    expect(result.report().autoInstalled).toEqual([])
    expect(projectRequests(index).length).toBe(before)
  })

  const python313 = pyenvPython('3.13.0').path
  itNeeding(pyenvPython('3.13.0'), 'refuses a standard-library module that Python 3.13 removed', async () => {
    const venv = join(mkdtempSync(join(tmpdir(), 'resilient-venv-')), 'venv')
    await execa(python313, ['-m', 'venv', '--without-pip', venv], { env: isolatedEnv() })
    const cwd = projectDir({ 'app.py': 'import telnetlib\n' }, config())
    const result = await runScript(cwd, ['--yes', '--', join(venv, 'bin/python'), 'app.py'])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(/"telnetlib" was removed from the standard library[\s\S]*pip install standard-telnetlib/)
  })

  it('passes the script\'s output and exit code through untouched', async () => {
    const venv = copyVenv(template)
    const cwd = projectDir({ 'app.py': 'import sys\nprint("to stdout")\nprint("to stderr", file=sys.stderr)\nsys.exit(3)\n' }, config())
    const result = await runScript(cwd, ['--yes', '--', join(venv, 'bin/python'), 'app.py'])
    expect(result.exitCode).toBe(3)
    expect(result.stdout).toBe('to stdout')
    expect(result.stderr).toBe('to stderr')
  })

  it('keeps to maxAutoInstalls from the config, and runs once with --no-auto-install', async () => {
    const venv = copyVenv(template)
    const cwd = projectDir({ 'app.py': 'import yaml\nimport cv2\n' }, { ...config(), maxAutoInstalls: 1 })
    const limited = await runScript(cwd, ['--yes', '--', join(venv, 'bin/python'), 'app.py'])
    expect(limited.exitCode).toBe(1)
    expect(limited.report().autoInstalled.map(entry => entry.package)).toEqual(['PyYAML'])
    expect(limited.stderr).toMatch(/still cannot import "cv2" after the install; resilient runs a command again only once/)
    const off = await runScript(cwd, ['--no-auto-install', '--yes', '--', join(venv, 'bin/python'), 'app.py'])
    expect(off.exitCode).toBe(1)
    expect(off.report()).toMatchObject({ runs: 1, autoInstalled: [] })
    expect(off.stderr).not.toMatch(/opencv-python/)
  })
})
