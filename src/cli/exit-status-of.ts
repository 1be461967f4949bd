import type { Command } from 'commander'
import type { ExitStatus } from '../run/signal-router.js'

// How a command hands its ending to runWithCommander: an exit code, or the signal its tool died of (re-raised).
const endings = new WeakMap<Command, ExitStatus>()

/** Records how the command that `program` ran ends. */
export function settle(program: Command, status: ExitStatus | number): void {
  endings.set(program, typeof status === 'number' ? { code: status } : status)
}

/** How the command that `program` ran ends: exit 0 when it recorded nothing. */
export function endingOf(program: Command): ExitStatus {
  return endings.get(program) ?? { code: 0 }
}
