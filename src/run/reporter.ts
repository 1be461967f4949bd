import type { Reporter } from '../retry/types.js'

/**
 * What a tool run talks to: the attempts loop's Reporter plus the run's own messages. The CLI gives a terminal or CI
 * reporter; a program calling runTool gives its own.
 */
export interface RunReporter extends Reporter {
  warn(message: string): void
  verbose(message: string): void
  /** Tells the CI runner to hide these values in every later log line (GitHub's `::add-mask::`). */
  mask?(secrets: readonly string[]): void
  /** An attempt's live throughput, when the reporter shows it apart from verbose lines (a terminal). */
  throughput?(line: string): void
  /** While the tool prints nothing: something that says so (a spinner), told of each chunk of the tool's output. */
  watchQuietTool?(tool: string, host?: string): QuietToolWatch | undefined
}

export interface QuietToolWatch {
  /** Call with each chunk of the tool's output, before it is written on. */
  output(chunk: Buffer): void
  stop(): void
}

export type { Reporter, RunResult, Source } from '../retry/types.js'
