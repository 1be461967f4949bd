import { execa } from 'execa'
import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isolatedEnv } from './isolated-env.js'

/** Node's entry of the built CLI; TEST_BUILD_BIN names another build's (to see a test fail on an older one). */
export const CLI = process.env.TEST_BUILD_BIN || fileURLToPath(new URL('../../bin/resilient.js', import.meta.url))

export interface CliResult {
  exitCode: number | undefined
  stdout: string
  stderr: string
  /** stdout and stderr interleaved, for failure messages. */
  all: string
}

export interface CliOptions {
  cwd?: string
  env?: Record<string, string>
  input?: string
  timeout?: number
  /** In a session of its own, as a terminal's job: Linux's autogroup then gives it its own CPU share (a fair race with a plain tool run the same way). */
  detached?: boolean
}

/** Runs the *built* CLI as a user would, in an isolated environment; never rejects. */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const subprocess = execa('node', [CLI, ...args], {
    reject: false, all: true, timeout: options.timeout ?? 120_000, cwd: options.cwd,
    env: options.env ?? isolatedEnv(), extendEnv: false, detached: options.detached ?? false, ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' }),
  })
  const result = await subprocess
  // A run that ended without an exit code (killed, or past its timeout) says why in `all`, which failure messages print.
  const ending = result.exitCode === undefined ? `\n[runCli: no exit code: ${result.timedOut ? `timed out after ${options.timeout ?? 120_000} ms` : `killed by ${result.signal ?? 'an unknown cause'}`}]` : ''
  // TEST_DEATH_LOG names a file that gathers such endings across a whole suite run (which signal, which test's run).
  if (ending && process.env.TEST_DEATH_LOG) appendFileSync(process.env.TEST_DEATH_LOG, `${new Date().toISOString()} ${JSON.stringify({ args, pid: subprocess.pid, signal: result.signal, timedOut: result.timedOut, ms: result.durationMs, tail: String(result.all ?? '').slice(-1500) })}\n`)
  return { exitCode: result.exitCode, stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? ''), all: String(result.all ?? '') + ending }
}

/** One attempt as `--report` writes it. */
export interface ReportAttempt { command: string[]; exitCode: number; source?: string; diagnosis: { category: string } | null }

/** Runs the built CLI with `--report` into the temporary HOME of `options.env`; returns the report's attempts too. */
export async function runWithReport(args: string[], options: CliOptions & { env: Record<string, string> }): Promise<CliResult & { attempts: ReportAttempt[]; home: string }> {
  const home = options.env.HOME!
  const report = join(home, 'report.json')
  const result = await runCli(['--report', report, ...args], options)
  const parsed = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : undefined
  return { ...result, attempts: parsed?.attempts ?? [], home }
}
