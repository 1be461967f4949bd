import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildWheel, startPypiServer, type PypiServer } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { copyVenv, distributions, projectDir, projectRequests, runScript, venvTemplate, wheelWithFiles } from '../helpers/run-helpers.js'
import { itNeeding, onDisk, pyenvPython } from '../helpers/requirements.js'

// What `resilient run` must never do: act on text or on another process's failure, undo what it did not do, run
// a package's code during its check, or change a Python that is not the script's own environment.
let index: PypiServer
let template: string
const marker = join(mkdtempSync(join(tmpdir(), 'resilient-pth-')), 'ran')

beforeAll(async () => {
  index = await startPypiServer({
    wheels: [
      buildWheel('PyYAML', '6.0.2', { module: 'yaml' }),
      buildWheel('opencv-python', '4.10.0', { module: 'cv2' }),
      buildWheel('matplotlib', '3.9.0'),
      buildWheel('setuptools', '70.0.0'),
      // Claims to be what provides `dateutil`, ships something else and a .pth that runs at every start-up.
      wheelWithFiles('python-dateutil', '2.9.0', { 'not_dateutil/__init__.py': '', 'zz_shady.pth': `import os; open(${JSON.stringify(marker)}, 'w').close()\n` }),
    ],
  })
  template = await venvTemplate()
}, 180_000)

afterAll(() => index?.close())

const config = () => ({ pypi: { index: index.url, mirrors: [] } })

describe('resilient run acts only on the script\'s own final, uncaught error', () => {
  it.each([
    ['a ModuleNotFoundError line printed on stdout', 'import sys\nprint("ModuleNotFoundError: No module named \'yaml\'")\nsys.exit(1)\n'],
    ['an ImportError caught and logged, then an exit for another reason', 'import sys\ntry:\n    import yaml\nexcept ImportError:\n    import logging; logging.exception("optional yaml")\nsys.exit("config error")\n'],
    ['a missing module in a subprocess whose failure the script handled', 'import subprocess, sys\nr = subprocess.run([sys.executable, "-c", "import yaml"])\nprint("child said", r.returncode)\nsys.exit(2)\n'],
  ])('installs nothing for %s', async (_, script) => {
    const venv = copyVenv(template)
    const before = projectRequests(index).length
    const result = await runScript(projectDir({ 'app.py': script }, config()), ['--yes', '--', join(venv, 'bin/python'), 'app.py'])
    expect(result.exitCode).not.toBe(0)
    expect(result.report()).toMatchObject({ runs: 1, autoInstalled: [], stopReason: null })
    expect(projectRequests(index).length).toBe(before)
  })

  it('installs nothing, in either venv, for a script that runs another venv\'s python', async () => {
    const parent = copyVenv(template)
    const other = copyVenv(template)
    const script = `import subprocess, sys\nr = subprocess.run([${JSON.stringify(join(other, 'bin/python'))}, "-c", "import yaml"])\nsys.exit(r.returncode)\n`
    const result = await runScript(projectDir({ 'app.py': script }, config()), ['--yes', '--', join(parent, 'bin/python'), 'app.py'])
    expect(result.exitCode).toBe(1)
    expect(result.report().autoInstalled).toEqual([])
    expect(await distributions(join(parent, 'bin/python'))).not.toContain('PyYAML')
    expect(await distributions(join(other, 'bin/python'))).not.toContain('PyYAML')
  })
})

describe('resilient run names the right package, or none', () => {
  it('refuses a module the project has at its root, when the script runs from a subdirectory', async () => {
    const venv = copyVenv(template)
    const root = projectDir({ 'pyproject.toml': '[project]\nname = "app"\n', 'serial/__init__.py': '', 'tools/run.py': 'import serial\n' }, config())
    const before = projectRequests(index).length
    const result = await runScript(join(root, 'tools'), ['--yes', '--', join(venv, 'bin/python'), 'run.py'])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(new RegExp(`${join(root, 'serial/__init__.py')} is named like the module, so this looks like a path problem`))
    expect(projectRequests(index).length).toBe(before)
  })

  it('proposes what pipreqs\' mapping knows for an unreviewed name, never installing it without a terminal', async () => {
    const venv = copyVenv(template)
    const result = await runScript(projectDir({ 'app.py': 'import paho.mqtt.client\n' }, config()), ['--yes', '--', join(venv, 'bin/python'), 'app.py'])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(/To install it yourself: .* paho_mqtt/)
  })
})

describe('resilient run never undoes what it did not do', () => {
  it('says nothing was installed when pip found it already there, records nothing, and removes nothing', async () => {
    const venv = copyVenv(template)
    await execa(join(venv, 'bin/python'), ['-m', 'pip', 'install', '--no-input', '--index-url', index.url, 'matplotlib'], { env: isolatedEnv() })
    const result = await runScript(projectDir({ 'app.py': 'import mpl_toolkits.basemap\n' }, config()), ['--yes', '--', join(venv, 'bin/python'), 'app.py'])
    expect(result.exitCode).toBe(69)
    expect(result.stderr).not.toMatch(/auto-installed|installed matplotlib/)
    expect(result.stderr).toMatch(/matplotlib does not provide "mpl_toolkits"[\s\S]*nothing was installed, so there is nothing to undo/)
    expect(result.report().autoInstalled).toEqual([])
    expect(existsSync(join(result.env.RESILIENT_STATE_DIR!, 'auto-installed.json'))).toBe(false)
    expect(await distributions(join(venv, 'bin/python'))).toContain('matplotlib')
  })

  const python312 = pyenvPython('3.12.1').path
  itNeeding(pyenvPython('3.12.1'), 'keeps the user\'s setuptools when `import distutils` fails on Python 3.12', async () => {
    const venv = join(mkdtempSync(join(tmpdir(), 'resilient-venv-')), 'venv')
    await execa(python312, ['-m', 'venv', venv], { env: isolatedEnv() })
    await execa(join(venv, 'bin/python'), ['-m', 'pip', 'install', '--no-input', '--index-url', index.url, 'setuptools==70.0.0'], { env: isolatedEnv() })
    const result = await runScript(projectDir({ 'app.py': 'import distutils\n' }, config()), ['--yes', '--', join(venv, 'bin/python'), 'app.py'])
    expect(result.exitCode).toBe(69)
    expect(result.stderr).toMatch(/nothing was installed, so there is nothing to undo/)
    expect(await distributions(join(venv, 'bin/python'))).toContain('setuptools')
  }, 120_000)

  it('removes what it installed when the check fails, without running the wheel\'s .pth file', async () => {
    const venv = copyVenv(template)
    const result = await runScript(projectDir({ 'app.py': 'import dateutil\n' }, config()), ['--yes', '--', join(venv, 'bin/python'), 'app.py'])
    expect(result.exitCode).toBe(69)
    expect(result.stderr).toMatch(/python-dateutil does not provide "dateutil" where the script looks[\s\S]*removed what this run added \(python-dateutil/)
    expect(result.report().autoInstalled).toEqual([])
    expect(await distributions(join(venv, 'bin/python'))).not.toContain('python-dateutil')
    expect(existsSync(marker)).toBe(false)
  })
})

describe('resilient run installs only into the script\'s own environment', () => {
  const python311 = pyenvPython('3.11.7').path
  itNeeding(pyenvPython('3.11.7'), 'refuses a Python that is not a venv (root into its prefix here) on --yes alone: the script\'s own status', async () => {
    const before = projectRequests(index).length
    const result = await runScript(projectDir({ 'app.py': 'import cv2\n' }, config()), ['--yes', '--', python311, 'app.py'])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(/is not a virtual environment: installing there changes every program that uses this Python; say so with --allow-global \(--yes alone does not\)/)
    expect(result.stderr).toMatch(/python3 -m venv \.venv/)
    expect(projectRequests(index).length).toBe(before)
  })

  const debianPython = '/usr/bin/python3'
  itNeeding(onDisk('Debian\'s python3 under PEP 668', '/usr/lib/python3.11/EXTERNALLY-MANAGED', debianPython), 'never installs into an OS-managed Python (PEP 668), even with --allow-global', async () => {
    const before = projectRequests(index).length
    const result = await runScript(projectDir({ 'app.py': 'import cv2\n' }, config()), ['--yes', '--allow-global', '--', debianPython, 'app.py'])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(/managed by the operating system \(PEP 668\): pip refuses to install into it/)
    expect(projectRequests(index).length).toBe(before)
  })
})
