import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isolatedEnv } from './isolated-env.js'
import { runCli, type CliResult, type ReportAttempt } from './run-cli.js'
import { relayOffUnlessSaid } from './e2e-setup.js'

// Runs the built CLI with the fake uv, conda, mamba, micromamba, pixi and pdm of test/e2e/bin first on PATH: tools
// that cannot be installed here, replaying their real failure output (see test/e2e/bin/fake-tool.mjs).

export const FAKE_BIN = fileURLToPath(new URL('../e2e/bin', import.meta.url))
export const PYPI_MIRROR = 'https://pypi-mirror.test/simple'
export const CONDA_MIRROR = 'https://conda-mirror.test/anaconda/cloud'

/** One start of a fake tool: what it was given. */
export interface FakeCall {
  tool: string
  argv: string[]
  /** Its settings variables (UV_, CONDA_, MAMBA_, PIXI_, PDM_, PIP_, POETRY_). */
  env: Record<string, string>
  /** Config files it was pointed at (PIXI_CONFIG_FILE, --config-file), with their content during the attempt. */
  files: Record<string, string>
}

export interface FakeRun extends CliResult {
  /** Every start, `--version` probes included. */
  calls: FakeCall[]
  /** The attempts only. */
  attempts: FakeCall[]
  report: { exitCode: number; attempts: ReportAttempt[] } | undefined
  /** The settings variables each attempt got from resilient (not from the test's own environment). */
  added: Record<string, string>[]
  /** With FAKE_TOOL_REQUESTS=1, what each replaying run asked of its index (`GET /simple/x/ 200`), in order. */
  requests: string[][]
  home: string
}

export interface FakeRunOptions {
  /** `.resilientrc.json` of the project folder the CLI runs in. */
  config?: unknown
  /** Files of the project folder (`pyproject.toml`, `pixi.toml`...). */
  files?: Record<string, string>
  /** Files of the temporary HOME (`.condarc`, `.pixi/config.toml`...). */
  home?: Record<string, string>
  /** The index URL with which the fake succeeds. */
  healthy?: string
  env?: Record<string, string>
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), content)
  }
}

export async function runWithFakes(args: string[], options: FakeRunOptions = {}): Promise<FakeRun> {
  const cwd = mkdtempSync(join(tmpdir(), 'resilient-fake-project-'))
  // The relay is off unless the test says (as projectWithConfig): these runs are about the restart loop.
  write(cwd, { '.resilientrc.json': JSON.stringify(relayOffUnlessSaid(options.config ?? {})), ...options.files })
  const log = join(cwd, '..', `${cwd.split('/').at(-1)}-calls.jsonl`)
  const reportFile = `${log}.report.json`
  // The fake mirrors (`pypi-mirror.test`) are outside the catalog: the project config is the tester's own, trusted.
  const env = isolatedEnv({ PATH: `${FAKE_BIN}:${process.env.PATH}`, FAKE_TOOL_LOG: log, RESILIENT_TRUST_PROJECT_CONFIG: '1', ...(options.healthy ? { FAKE_HEALTHY_INDEX: options.healthy } : {}), ...options.env })
  write(env.HOME!, options.home ?? {})
  const result = await runCli(['--report', reportFile, ...args], { cwd, env })
  const calls = readLines(log).map(line => JSON.parse(line) as FakeCall)
  const attempts = calls.filter(call => !(call.argv.length === 1 && call.argv[0] === '--version'))
  const added = attempts.map(call => Object.fromEntries(Object.entries(call.env).filter(([name, value]) => env[name] !== value)))
  let report
  try {
    report = JSON.parse(readFileSync(reportFile, 'utf8'))
  } catch {
    report = undefined
  }
  const requests = readLines(`${log}.requests`).map(line => JSON.parse(line) as string[])
  return { ...result, calls, attempts, added, requests, report, home: env.HOME! }
}

/** `resilient --dry-run ...` with the fakes on PATH: the planned commands, one per line. */
export async function dryRun(args: string[], options: FakeRunOptions = {}): Promise<FakeRun & { lines: string[] }> {
  const run = await runWithFakes(['--dry-run', ...args], options)
  return { ...run, lines: run.stdout.split('\n').filter(Boolean) }
}

function readLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n').filter(Boolean)
  } catch {
    return []
  }
}
