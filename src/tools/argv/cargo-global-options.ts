import type { CommandLine } from '../context.js'

/** `--config` is global: it goes right after `cargo` (and after `+toolchain`, which must come first). */
export function addCargoGlobalOptions(command: CommandLine, ...options: string[]): CommandLine {
  const at = command.argv[1]?.startsWith('+') ? 2 : 1
  return { ...command, argv: [...command.argv.slice(0, at), ...options, ...command.argv.slice(at)] }
}
