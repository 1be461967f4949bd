import { execa } from 'execa'
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
}

/** Runs the *built* CLI as a user would, in an isolated environment; never rejects. */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const result = await execa('node', [CLI, ...args], {
    reject: false, all: true, timeout: options.timeout ?? 120_000, cwd: options.cwd,
    env: options.env ?? isolatedEnv(), extendEnv: false, ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' }),
  })
  return { exitCode: result.exitCode, stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? ''), all: String(result.all ?? '') }
}
