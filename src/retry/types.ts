import type { Diagnosis } from '../diagnose/types.js'
import type { Host, RunResult, Source } from '../plan/types.js'
import type { CommandLine } from '../tools/types.js'

export type { AttemptRecord, Outcome, RunResult, Source } from '../plan/types.js'

/**
 * A change the person agreed to when no automatic fix existed (a proxy URL, a token, a venv): applied to every later
 * attempt of this run only, never saved.
 */
export interface Fix {
  /** What changes, for messages and the report ("use the proxy http://proxy:3128 for this run"). */
  description: string
  env?: Record<string, string>
  /** Replaces the command for later attempts (credentials, --trusted-host, --user, a venv's interpreter). */
  rewrite?: (command: CommandLine) => CommandLine
}

/** Everything the loop says; cli/reporter.ts renders it, tests record it. */
export interface Reporter {
  /** `total` is how many attempts the run will make if each fails as planned: "attempt 2 of 3". */
  /** `reason`: why the attempt's source has its place (PlannedAttempt.reason). */
  attemptStarted(event: { number: number; total: number; source: Source; hosts: readonly Host[]; command: string; retry: boolean; reason?: string }): void
  /** `stopped`: resilient ended the attempt itself (a stall, hedged detection); `exitCode` is then its own signal's. */
  attemptFailed(event: { number: number; source: Source; diagnosis: Diagnosis; durationMs: number; exitCode: number; stopped?: boolean }): void
  /** A pause before the next attempt; `endsAt` (on the loop's clock) lets a spinner count down; `next` is where to. */
  waiting(event: { seconds: number; reason: string; endsAt: number; next?: string }): Promise<void> | void
  note(message: string, options?: { overToolLine?: boolean }): void
  /** Shown with --verbose only. */
  verbose?(message: string): void
  finished(result: RunResult, event: { switchedTo?: Source }): void
}
