import { detectPytestCollection } from './detect-python.js'
import type { HookOutcome } from './script-hooks.js'
import type { Detection } from './types.js'

/** The script's output, kept apart: stderr alone (pipes), and everything it wrote (a pseudo-terminal mixes both). */
export interface ScriptOutput {
  stderr: string
  all: string
}

/**
 * The missing module the script's own final, uncaught error names, or undefined. With a hook report, only the
 * exception that ended the process counts; a process that ended otherwise (sys.exit after a handled ImportError,
 * a subprocess's failure the script dealt with) triggers nothing. Without a hook (`python -I`, Bun), the last
 * error block of stderr is read, never stdout: the text a script prints is not its failure.
 */
export function finalError(outcome: HookOutcome, output: ScriptOutput, detect: (text: string) => Detection | undefined): Detection | undefined {
  switch (outcome.kind) {
    case 'uncaught': return detect(outcome.text)
    case 'clean': return outcome.pytest ? detectPytestCollection(output.all) : undefined
    case 'absent': return detect(output.stderr)
  }
}
