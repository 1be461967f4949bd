import type { IndexChoice, ToolContext } from '../context.js'

/**
 * When the tool's files cannot say for certain which index the tool will use (a pyenv shim hides the interpreter's
 * own pip.conf), how to ask the tool itself: through the launcher the person used, with the run's environment, at
 * failure time only (src/plan/confirm.ts), so that a healthy run pays nothing.
 */
export interface SourceQuestion {
  /** Why findUserIndex may not be what the tool uses here; undefined when it is certain. */
  uncertainty(context: ToolContext): string | undefined
  /** The tool's own command that prints its answer (`pip config list`, `npm config get registry` with the same flags). */
  command(context: ToolContext, launcher: readonly string[]): { argv: string[]; cwd?: string }
  /** Its output read: the choice, null for the tool's default index, undefined when the output is not understood. */
  read(stdout: string, context: ToolContext): IndexChoice | null | undefined
}
