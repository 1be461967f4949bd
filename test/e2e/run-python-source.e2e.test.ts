import { execa } from 'execa'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildWheel } from '../helpers/fake-pypi.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { pypiServers } from '../helpers/e2e-setup.js'
import { projectDir, runScript } from '../helpers/run-helpers.js'

// `resilient run` installs a missing module from where the project says its packages come from, in the tool's own
// precedence, never from a public index when the project names its own. The project's index carries the real
// termcolor; the public index (the config's, standing in for PyPI) a look-alike of the same name and version.
const server = pypiServers()

/** A virtual environment without a pip of its own (the machine's, through the system site packages): made in a second. */
async function quickVenv(): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), 'resilient-venv-')), 'venv')
  await execa('python3', ['-m', 'venv', '--without-pip', '--system-site-packages', dir], { env: isolatedEnv() })
  return join(dir, 'bin', 'python')
}

describe('resilient run: the project\'s declared source', () => {
  it.each([
    ['requirements.txt --index-url', (own: string) => ({ 'requirements.txt': `--index-url ${own}\ntermcolor==2.5.0\n` })],
    ['pyproject [[tool.uv.index]]', (own: string) => ({ 'pyproject.toml': `[project]\nname = "app"\nversion = "1"\ndependencies = ["termcolor==2.5.0"]\n\n[[tool.uv.index]]\nname = "corp"\nurl = "${own}"\n` })],
    ['pyproject [[tool.poetry.source]]', (own: string) => ({ 'pyproject.toml': `[tool.poetry]\nname = "app"\n\n[tool.poetry.dependencies]\ntermcolor = "2.5.0"\n\n[[tool.poetry.source]]\nname = "corp"\nurl = "${own}"\n` })],
  ])('%s', async (_, declare) => {
    const own = await server({ wheels: [buildWheel('termcolor', '2.5.0')] })
    const publicIndex = await server({ wheels: [buildWheel('termcolor', '2.5.0', { paddingBytes: 64 })] })
    const cwd = projectDir({ 'app.py': 'import termcolor\nprint("loaded", termcolor.NAME)\n', ...declare(own.url) }, { pypi: { index: publicIndex.url, mirrors: [] } })
    const result = await runScript(cwd, ['--yes', '--', await quickVenv(), 'app.py'])
    expect(publicIndex.requests, result.all).toEqual([])
    expect(result.exitCode, result.all).toBe(0)
    expect(result.stdout).toBe('loaded termcolor')
    expect(own.requests.some(path => path.startsWith('/files/termcolor-2.5.0')), result.all).toBe(true)
    expect(result.stderr).toContain(`Looking in indexes: ${own.url}`)
  }, 120_000)
})
