import { describe, expect, it } from 'vitest'
import { dryRun, PYPI_MIRROR, runWithFakes } from '../helpers/fake-tools.js'

// uv cannot be installed here: a fake uv replays real uv failures (test/e2e/bin/replay) and records each attempt.
const config = { pypi: { mirrors: [PYPI_MIRROR] } }

describe('uv through resilient (replayed output)', () => {
  it('recovers from a download timeout on the mirror, by UV_DEFAULT_INDEX', async () => {
    const run = await runWithFakes(['uv', 'pip', 'install', 'demo-pkg'], { config, healthy: PYPI_MIRROR })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.attempts.map(call => call.argv)).toEqual([['pip', 'install', 'demo-pkg'], ['pip', 'install', 'demo-pkg']])
    // uv's own timeout and retries are never touched: the first attempt runs as typed.
    expect(run.added).toEqual([{}, { UV_DEFAULT_INDEX: PYPI_MIRROR }])
    expect(run.report?.attempts.map(attempt => attempt.diagnosis?.category ?? null)).toEqual(['timeout', null])
    expect(run.stderr).toMatch(/switched to mirror pypi-mirror\.test/)
  })

  it('uses UV_INDEX_URL for uv add, which uv does not write into pyproject.toml', async () => {
    const run = await runWithFakes(['uv', 'add', 'httpx'], { config, healthy: PYPI_MIRROR, files: { 'pyproject.toml': '[project]\nname = "p"\nversion = "0"\n' } })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.added).toEqual([{}, { UV_INDEX_URL: PYPI_MIRROR }])
  })

  it('recovers uvx from a DNS failure, leaving the program arguments alone', async () => {
    const run = await runWithFakes(['uvx', 'ruff', 'check', '--index-url', 'kept-for-ruff'], { config, healthy: PYPI_MIRROR })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.attempts.map(call => [call.tool, ...call.argv])).toEqual([['uvx', 'ruff', 'check', '--index-url', 'kept-for-ruff'], ['uvx', 'ruff', 'check', '--index-url', 'kept-for-ruff']])
    expect(run.added[1]).toEqual({ UV_DEFAULT_INDEX: PYPI_MIRROR })
    expect(run.report?.attempts[0]?.diagnosis?.category).toBe('dns')
  })

  it('never sends a private default index elsewhere: it retries the same index', async () => {
    const pyproject = '[project]\nname = "p"\nversion = "0"\n[[tool.uv.index]]\nname = "corp"\nurl = "https://pypi.corp.example/simple"\ndefault = true\n'
    const run = await runWithFakes(['--max-attempts', '2', 'uv', 'sync'], { config, healthy: PYPI_MIRROR, files: { 'pyproject.toml': pyproject } })
    expect(run.exitCode).toBe(2)
    expect(run.attempts).toHaveLength(2)
    expect(run.added).toEqual([{}, {}])
    expect(run.all).not.toContain(PYPI_MIRROR)
  })

  it('prints the planned attempts with the mirror in the environment', async () => {
    const run = await dryRun(['uv', 'pip', 'install', 'demo-pkg'], { config })
    expect(run.lines).toEqual([
      'uv pip install demo-pkg',
      `UV_DEFAULT_INDEX=${PYPI_MIRROR} uv pip install demo-pkg`,
    ])
    expect(run.calls).toEqual([])
  })

  it('plans no mirror for uv sync --frozen, which installs the URLs of uv.lock', async () => {
    const run = await dryRun(['--verbose', 'uv', 'sync', '--frozen'], { config })
    expect(run.lines).toEqual(['uv sync --frozen'])
    expect(run.stderr).toMatch(/no mirror will be used: with --frozen, uv installs the URLs pinned in uv\.lock/)
  })
})
