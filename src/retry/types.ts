import type { Diagnosis } from '../diagnose/types.js'
import type { ProgressSummary } from '../exec/progress-monitor.js'
import type { CommandLine } from '../tools/types.js'

/** Where one attempt sends the install. */
export interface Source {
  /** `primary` for the index as the command names it, a catalog id (`tuna`), `upstream`, or a config URL's host. */
  id: string
  /** The index URL to apply; undefined leaves the command's own index choice (or the tool default) untouched. */
  url: string | undefined
  /** The index this source really talks to (the user's own URL when `url` is undefined), for probes and health. */
  indexUrl?: string
  /** `upstream` and `mirror` may be replaced; `private` and `local` never are. */
  kind: 'upstream' | 'mirror' | 'private' | 'local'
  /** What the person sees: `pypi.org`, `mirror tuna`, `your index pypi.corp.example`. */
  label: string
}

export interface SourcePlan {
  primary: Source
  /** Mirrors in the order they will be tried after the primary. */
  fallbacks: Source[]
  /** The public upstream, for "not found on a mirror: try upstream once". */
  upstream?: Source
  /** Why no mirror may be used, when none may (a private index, a requirement file pinning the index). */
  noSwitchReason?: string
}

export interface AttemptRecord {
  number: number
  source: Source
  command: CommandLine
  exitCode: number
  durationMs: number
  diagnosis: Diagnosis | null
  /** Bytes the attempt received and its average throughput, where measured (docs/stall-detection.md). */
  progress?: ProgressSummary
}

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

export type Outcome = 'succeeded' | 'failed' | 'gave-up' | 'interrupted' | 'ran-once'

export interface RunResult {
  outcome: Outcome
  exitCode: number
  durationMs: number
  attempts: AttemptRecord[]
  /** Fixes the person agreed to during the run. */
  fixes?: string[]
  /** The last diagnosis and what the person should do, when resilient gave up. */
  finalDiagnosis?: Diagnosis
  stopReason?: string
  hint?: string
}

/** Everything the loop says; cli/reporter.ts renders it, tests record it. */
export interface Reporter {
  attemptStarted(event: { number: number; maxAttempts: number; source: Source; command: string; retry: boolean }): void
  attemptFailed(event: { number: number; source: Source; diagnosis: Diagnosis; durationMs: number; exitCode: number }): void
  waiting(event: { seconds: number; reason: string }): Promise<void> | void
  note(message: string): void
  finished(result: RunResult, event: { switchedTo?: Source }): void
}
