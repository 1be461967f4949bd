import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildWheel, startPypiServer, type PypiServer } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { copyVenv, distributions, projectDir, runScript, venvTemplate } from '../helpers/run-helpers.js'

// The versions it installs, what runs again, what a dry run shows, and the commands whose environment it follows
// (env) or says it cannot see (uv run), with real venvs and a local index.
let index: PypiServer
let template: string

beforeAll(async () => {
  index = await startPypiServer({ wheels: [buildWheel('PyYAML', '5.4.1', { module: 'yaml' }), buildWheel('PyYAML', '6.0.2', { module: 'yaml' })] })
  template = await venvTemplate()
}, 180_000)

afterAll(() => index?.close())

const config = () => ({ pypi: { index: index.url, mirrors: [] } })
const versionOf = async (python: string) => (await import('execa')).execa(python, ['-c', 'import importlib.metadata as m; print(m.version("PyYAML"))']).then(result => result.stdout)

describe('resilient run installs the version the project declares', () => {
  it.each([
    ['requirements.txt', { 'requirements.txt': 'PyYAML==5.4.1\n' }, 'requirements.txt:1'],
    ['pyproject.toml (PEP 621)', { 'pyproject.toml': '[project]\nname = "app"\ndependencies = ["PyYAML==5.4.1"]\n' }, 'pyproject.toml [project.dependencies]'],
    ['pyproject.toml (Poetry)', { 'pyproject.toml': '[tool.poetry.dependencies]\npython = "^3.8"\nPyYAML = "~5.4"\n' }, 'pyproject.toml [tool.poetry.dependencies]'],
    ['PEP 723 inline metadata', {}, 'app.py (inline script metadata)'],
  ])('from %s, and says it is already declared', async (_, files, origin) => {
    const venv = copyVenv(template)
    const header = Object.keys(files).length ? '' : '# /// script\n# dependencies = ["PyYAML==5.4.1"]\n# ///\n'
    const result = await runScript(projectDir({ ...files, 'app.py': `${header}import yaml\nprint(yaml.__version__)\n` }, config()), ['--yes', '--', join(venv, 'bin/python'), 'app.py'])
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stdout).toBe('5.4.1')
    expect(await versionOf(join(venv, 'bin/python'))).toBe('5.4.1')
    expect(result.stderr).toContain(`PyYAML is already declared in ${origin}`)
    expect(result.stderr).not.toMatch(/Add PyYAML to the project's requirements/)
  })
})

describe('resilient run runs the script again once, from the start, or not at all', () => {
  it('runs it again from the start, and says so; --install-only installs and stops', async () => {
    const script = 'open("ledger.txt", "a").write("entry\\n")\nprint("run")\nimport yaml\nprint("done")\n'
    const again = projectDir({ 'app.py': script }, config())
    const rerun = await runScript(again, ['--yes', '--', join(copyVenv(template), 'bin/python'), 'app.py'])
    expect(rerun.exitCode).toBe(0)
    expect(rerun.stderr).toMatch(/running the command again from the start/)
    expect(readFileSync(join(again, 'ledger.txt'), 'utf8')).toBe('entry\nentry\n')

    const once = projectDir({ 'app.py': script }, config())
    const venv = copyVenv(template)
    const installOnly = await runScript(once, ['--yes', '--install-only', '--', join(venv, 'bin/python'), 'app.py'])
    expect(installOnly.exitCode).toBe(0)
    expect(installOnly.stdout).toBe('run')
    expect(readFileSync(join(once, 'ledger.txt'), 'utf8')).toBe('entry\n')
    expect(installOnly.report()).toMatchObject({ runs: 1, autoInstalled: [{ package: 'PyYAML' }] })
    expect(await distributions(join(venv, 'bin/python'))).toContain('PyYAML')
  })

  it('with --dry-run, runs the script once and prints the install it would run, installing nothing', async () => {
    const venv = copyVenv(template)
    const cwd = projectDir({ 'app.py': 'print("ran")\nimport yaml\n' }, config())
    const result = await runCli(['--dry-run', 'run', '--', join(venv, 'bin/python'), 'app.py'], { cwd, env: isolatedEnv() })
    expect(result.exitCode).toBe(1)
    expect(result.stdout.split('\n')).toEqual(['ran', `${join(venv, 'bin/python')} -m pip install --only-binary=:all: --no-input PyYAML --index-url ${index.url}`])
    expect(result.stderr).toMatch(/would install, in one command:[\s\S]*PyYAML \(the newest on the index\) for "yaml"[\s\S]*index: +http:\/\/127\.0\.0\.1:\d+\/simple/)
    expect(await distributions(join(venv, 'bin/python'))).not.toContain('PyYAML')
  })
})

describe('resilient run follows env(1), and is honest about runners it cannot see into', () => {
  it('installs into the Python that `env python3` finds on PATH', async () => {
    const venv = copyVenv(template)
    const env = isolatedEnv({ PATH: `${join(venv, 'bin')}:${process.env.PATH}` })
    const result = await runScript(projectDir({ 'app.py': 'import yaml\nprint("ok")\n' }, config()), ['--yes', '--', 'env', 'LC_ALL=C', 'python3', 'app.py'], env)
    expect(result.exitCode, result.all).toBe(0)
    expect(result.report().autoInstalled).toMatchObject([{ package: 'PyYAML', environment: join(venv, 'bin/python3') }])
  })

  it('says `uv run` chooses the environment, installs nothing, and names the command that would work', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'resilient-bin-'))
    mkdirSync(bin, { recursive: true })
    // A stand-in for uv: `uv run <command>` runs the command, as uv does once it has picked an environment.
    writeFileSync(join(bin, 'uv'), '#!/bin/sh\nshift\nexec "$@"\n')
    chmodSync(join(bin, 'uv'), 0o755)
    const venv = copyVenv(template)
    const env = isolatedEnv({ PATH: `${bin}:${join(venv, 'bin')}:${process.env.PATH}` })
    const result = await runScript(projectDir({ 'app.py': 'import yaml\n' }, config()), ['--yes', '--', 'uv', 'run', 'python', 'app.py'], env)
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(/cannot import "yaml", and resilient installs nothing: `uv run` chooses the environment itself, and resilient cannot see which one it used/)
    expect(result.stderr).toMatch(/resilient run -- \.venv\/bin\/python app\.py/)
    expect(result.stderr).not.toMatch(/cannot fix/)
  })
})
