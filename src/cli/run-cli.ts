import { ResilientError } from '../errors.js'
import { ownText } from '../own-text.js'
import type { ExitStatus } from '../run/signal-router.js'
import { SUBCOMMANDS } from './subcommands.js'


/**
 * `resilient pip install x`, with no option of resilient's before the tool: what commander would hand to runTool
 * (the tool, its arguments untouched, no options), found without loading commander and the subcommands' definitions.
 */
export function isPlainToolCall(argv: readonly string[]): boolean {
  const first = argv[0]
  return first !== undefined && first !== '' && !first.startsWith('-') && !SUBCOMMANDS.has(first)
}

/** `resilient shim run <tool> [args...]`, what every shim starts: just as plain, and as common. */
export function isShimRun(argv: readonly string[]): boolean {
  return argv[0] === 'shim' && argv[1] === 'run' && argv[2] !== undefined && argv[2] !== '' && !argv[2].startsWith('-')
}

/** Runs the command line and maps every failure to a one-paragraph message and an exit code. */
export async function runCli(argv: string[]): Promise<ExitStatus> {
  try {
    if (isPlainToolCall(argv)) {
      // A tool that died of a signal makes resilient die of it too (src/run/signal-router.ts), as a shell would see it.
      return await (await import('./commands/tool-command.js')).toolCommand(argv)
    }
    if (isShimRun(argv)) return await (await import('./commands/shim-run.js')).runShim(argv[2]!, argv.slice(3))
    return await (await import('./program.js')).runWithCommander(argv)
  } catch (error) {
    if (error instanceof ResilientError) {
      process.stderr.write(ownText(`resilient: ${error.message}${error.hint ? `\n  → ${error.hint}` : ''}\n`))
      return { code: error.exitCode }
    }
    const debug = argv.includes('--debug')
    process.stderr.write(ownText(`resilient: internal error: ${(error as Error)?.message ?? String(error)}\n  → This is a bug in resilient; please report it with the command you ran${debug ? '' : ' (add --debug for details)'}.\n`))
    if (debug) process.stderr.write(ownText(`${(error as Error)?.stack ?? ''}\n`))
    return { code: 70 }
  }
}
