import type { CommandLine } from '../context.js'

/** The small rewrites every adapter makes to one attempt's command; none writes anything persistent. */

/** Adds variables for one attempt; a variable the adapter set earlier in the chain is replaced. */
export function withEnv(command: CommandLine, extra: Record<string, string>): CommandLine {
  return { ...command, env: { ...command.env, ...extra } }
}

/** Appends arguments: after the subcommand's own, where a later option wins in optparse, argparse and clap alike. */
export function withArgs(command: CommandLine, ...extra: string[]): CommandLine {
  return { ...command, argv: [...command.argv, ...extra] }
}

/** Appends a flag unless the command already has it (`--no-cache-dir`): a flag given twice is an error in some tools. */
export function withFlag(command: CommandLine, flag: string): CommandLine {
  return command.argv.includes(flag) ? command : withArgs(command, flag)
}

/** Adds a file for one attempt, written before it and removed after it (CommandLine.files). */
export function withFile(command: CommandLine, file: { path: string; content: string }): CommandLine {
  return { ...command, files: [...(command.files ?? []), file] }
}
