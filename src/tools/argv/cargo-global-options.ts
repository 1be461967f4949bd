import type { CommandLine } from '../context.js'
import { findOptions } from './args.js'

/**
 * `--config` is global: it goes right after `cargo` (and after `+toolchain`, which must come first), or right after
 * the person's own last `--config`. cargo takes the last `--config` that sets a key (cargo 1.95, seen here), so
 * resilient's source replacement placed before theirs would be silently overridden by it: the plan, `--dry-run` and
 * the relay would claim a source cargo never asks. resilient replaces crates-io only where the plan decided the
 * person's own source may be replaced (a public index); a source of their own keeps the command as typed.
 */
export function addCargoGlobalOptions(command: CommandLine, ...options: string[]): CommandLine {
  const start = command.argv[1]?.startsWith('+') ? 2 : 1
  const last = findOptions(command.argv.slice(start), { long: ['--config'], takesValue: true }).at(-1)
  const at = !last ? start : start + last.index + (command.argv[start + last.index]!.includes('=') ? 1 : 2)
  return { ...command, argv: [...command.argv.slice(0, at), ...options, ...command.argv.slice(at)] }
}
