import { isCI } from 'ci-info'
import type { RunFlags } from '../../run/flags.js'
import type { RunReporter } from '../../run/reporter.js'
import { runTool } from '../../run/run-tool.js'
import type { ExitStatus } from '../../run/signal-router.js'
import { chooseReporter } from '../ci-reporter.js'
import { TerminalReporter } from '../reporter.js'
import { withFirstWordHelp } from '../unknown-word.js'

/** What a tool run started from the command line says, on stderr: the terminal's reporter, with a CI's markers. */
export function cliReporter(env: NodeJS.ProcessEnv, flags: RunFlags): RunReporter {
  const terminal = new TerminalReporter({ stream: process.stderr, quiet: Boolean(flags.quiet), verbose: Boolean(flags.verbose || flags.debug), interactive: Boolean(process.stderr.isTTY) && !isCI, githubActions: env.GITHUB_ACTIONS === 'true' })
  return chooseReporter(env, terminal, process.stderr)
}

/**
 * `resilient [options] <tool> [args...]`, and what a shim starts: the tool run (src/run/run-tool.ts) reported on
 * stderr, and how it ended, for resilient to end the same way (its exit code, or the signal it died of).
 */
export async function toolCommand(argv: string[], flags: RunFlags = {}, env: NodeJS.ProcessEnv = process.env): Promise<ExitStatus> {
  const run = await withFirstWordHelp(argv[0], () => runTool(argv, { reporter: cliReporter(env, flags), env, flags }))
  return { code: run.exitCode, signal: run.signal }
}
