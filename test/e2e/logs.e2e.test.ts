import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { logsDirectory } from '../../src/paths.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { filesIn, projectWithConfig } from '../helpers/e2e-setup.js'
import { standIn } from '../helpers/process-helpers.js'

const TIMEOUT_OUTPUT = `WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError("HTTPSConnectionPool(host='primary.test', port=443): Read timed out. (read timeout=6)")': /simple/demo-pkg/
ERROR: Could not find a version that satisfies the requirement demo-pkg (from versions: none)
ERROR: No matching distribution found for demo-pkg`

/** A fake pip first on PATH: times out unless it is sent to the mirror. */
function fakePipEnv(extra: Record<string, string> = {}): Record<string, string> {
  // The fake hosts (primary.test, mirror.test) are the tester's own: the project config is trusted.
  return standIn('pip', `case "$*" in *mirror.test*) echo "Saved ./demo_pkg-1.0-py3-none-any.whl"; exit 0 ;; esac
cat >&2 <<'OUT'
${TIMEOUT_OUTPUT}
OUT
exit 1
`, { RESILIENT_TRUST_PROJECT_CONFIG: '1', ...extra }).env
}

const cwd = () => projectWithConfig({ pypi: { index: 'https://primary.test/simple', mirrors: ['https://mirror.test/simple'] } })

describe('run logs', () => {
  it('every run writes one, and `logs --last --json` shows its attempts', async () => {
    const env = fakePipEnv()
    const run = await runCli(['pip', 'download', 'demo-pkg'], { env, cwd: cwd() })
    expect(run.exitCode, String(run.all)).toBe(0)
    const files = readdirSync(logsDirectory(env))
    expect(files).toHaveLength(1)
    expect(statSync(join(logsDirectory(env), files[0]!)).mode & 0o777).toBe(0o600)
    const result = await runCli(['logs', '--last', '--json'], { env })
    expect(result.exitCode).toBe(0)
    const log = JSON.parse(String(result.stdout))
    expect(log).toMatchObject({ logFormat: 1, tool: 'pip', outcome: 'succeeded', exitCode: 0, invocation: ['pip', 'download', 'demo-pkg'] })
    expect(log.resilientVersion).toMatch(/^\d+\.\d+\.\d+/)
    expect(Date.parse(log.finishedAt)).toBeGreaterThanOrEqual(Date.parse(log.startedAt))
    expect(log.attempts.map((attempt: { diagnosis: { category: string } | null }) => attempt.diagnosis?.category ?? null)).toEqual(['timeout', null])
    expect(log.attempts[1].command).toContain('https://mirror.test/simple')
  })

  it('`logs` lists runs newest first, `logs --last` explains the last one', async () => {
    const env = fakePipEnv()
    await runCli(['pip', 'download', 'demo-pkg'], { env, cwd: cwd() })
    await runCli(['--max-attempts', '1', 'pip', 'download', 'demo-pkg'], { env, cwd: cwd() })
    const list = await runCli(['logs'], { env })
    const lines = String(list.stdout).split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/gave up after 1 attempt: timeout\s+exit 1 .* pip download demo-pkg$/)
    expect(lines[1]).toMatch(/recovered in 2 attempts \(on mirror mirror\.test\)\s+exit 0 .* pip download demo-pkg$/)
    const last = await runCli(['logs', '--last'], { env })
    expect(last.stdout).toMatch(/^pip download demo-pkg\n {2}started .* resilient \d/)
  })

  it('runs that cannot fail over write none: read-only verbs, local commands, failing or not', async () => {
    const env = fakePipEnv()
    for (const args of [['--version'], ['list'], ['freeze'], ['config', 'get', 'global.index-url'], ['uninstall', '-y', 'demo-pkg']]) {
      const run = await runCli(['pip', ...args], { env, cwd: cwd() })
      expect(run.exitCode).toBe(1)
    }
    expect(filesIn(logsDirectory(env))).toEqual([])
    await runCli(['pip', 'download', 'demo-pkg'], { env, cwd: cwd() })
    expect(filesIn(logsDirectory(env))).toHaveLength(1)
  })

  it('keeps only logs.keep of them', async () => {
    const env = fakePipEnv()
    const dir = projectWithConfig({ logs: { keep: 2 }, pypi: { index: 'https://primary.test/simple', mirrors: ['https://mirror.test/simple'] } })
    for (let i = 0; i < 3; i++) await runCli(['pip', 'download', 'demo-pkg'], { env, cwd: dir })
    expect(readdirSync(logsDirectory(env))).toHaveLength(2)
  })

  it('RESILIENT_STATE_DIR decides where they go', async () => {
    const state = mkdtempSync(join(tmpdir(), 'resilient-state-'))
    const env = fakePipEnv({ RESILIENT_STATE_DIR: state })
    await runCli(['pip', 'download', 'demo-pkg'], { env, cwd: cwd() })
    expect(readdirSync(join(state, 'logs'))).toHaveLength(1)
  })

  it('a log that cannot be written does not fail the install', async () => {
    const state = mkdtempSync(join(tmpdir(), 'resilient-state-'))
    writeFileSync(join(state, 'logs'), 'a file where the directory should be')
    const env = fakePipEnv({ RESILIENT_STATE_DIR: state })
    const run = await runCli(['pip', 'download', 'demo-pkg'], { env, cwd: cwd() })
    expect(run.exitCode).toBe(0)
    expect(run.stderr).toMatch(/! could not write the run log to /)
  })

  it('says so when there are none', async () => {
    const env = isolatedEnv()
    const list = await runCli(['logs'], { env })
    expect(list.exitCode).toBe(0)
    expect(list.stderr).toContain('No run logs yet')
    expect((await runCli(['logs', '--last'], { env })).exitCode).toBe(1)
    expect(String((await runCli(['logs', '--json'], { env })).stdout)).toBe('[]')
  })
})
