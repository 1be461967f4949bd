import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildWheel, startPypiServer, type PypiServer } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { copyVenv, distributions, projectDir, venvTemplate } from '../helpers/run-helpers.js'

// `resilient run`'s second run reads the same stdin as the first, or does not happen. Real venvs,
// a local PEP 503 index, the built CLI.
let index: PypiServer
let template: string

beforeAll(async () => {
  index = await startPypiServer({ wheels: [buildWheel('PyYAML', '6.0.2', { module: 'yaml' })] })
  template = await venvTemplate()
}, 180_000)

afterAll(() => index?.close())

// Reads all of stdin, says how much, then needs yaml.
const SCRIPT = 'import sys\ndata = sys.stdin.read()\nprint("read", len(data), "bytes:", data.split())\nimport yaml\nprint("yaml", yaml.NAME)\n'

describe('resilient run and the script\'s stdin', () => {
  it('runs the script again with the same stdin after installing the missing module', async () => {
    const venv = copyVenv(template)
    const cwd = projectDir({ 'io.py': SCRIPT }, { pypi: { index: index.url, mirrors: [] } })
    const result = await runCli(['run', '--yes', '--', join(venv, 'bin/python'), 'io.py'], { cwd, input: 'a\nb\n' })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stdout).toBe("read 4 bytes: ['a', 'b']\nread 4 bytes: ['a', 'b']\nyaml PyYAML")
  }, 120_000)

  it('does not install or run again when the input was longer than it keeps, and says why in one line', async () => {
    const venv = copyVenv(template)
    const cwd = projectDir({ 'io.py': SCRIPT }, { pypi: { index: index.url, mirrors: [] } })
    const env = isolatedEnv({ RESILIENT_REPLAY_INPUT_MEGABYTES: '0.000002' })
    const result = await runCli(['run', '--yes', '--', join(venv, 'bin/python'), 'io.py'], { cwd, input: 'a\nb\n', env })
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe("read 4 bytes: ['a', 'b']")
    expect(result.stderr).toMatch(/cannot be run again with the same input: the tool read more than 2 B of its standard input/)
    expect(await distributions(join(venv, 'bin/python'))).not.toContain('PyYAML')
  }, 120_000)
})
