import { redactDeep } from '../redact.js'

/** One attempt as a log and a `--report` show it. */
export interface LoggedAttempt {
  command: string[]
  source: string
  exitCode: number
  durationMs: number
  diagnosis: { category: string; summary: string; evidence: string[]; rule?: string } | null
}

/** The `--report` content (see toReport in src/run/report.ts). */
export interface RunReport {
  tool: string
  exitCode: number
  durationMs: number
  outcome: string
  attempts: LoggedAttempt[]
  hint: string | null
}

/** What `resilient logs` reads back: the report plus when, where and by which resilient it ran. */
export interface RunLog extends RunReport {
  /** Bumped when the shape changes, so `resilient logs` can skip files it cannot read. */
  logFormat: 1
  resilientVersion: string
  startedAt: string
  finishedAt: string
  cwd: string
  /** The command as the person typed it (resilient's options excluded), secrets masked. */
  invocation: string[]
}

export interface RunLogInput {
  report: RunReport
  invocation: string[]
  startedAt: Date
  finishedAt: Date
  cwd: string
  resilientVersion: string
}

/** Builds a log entry; everything in it is redacted, whatever the caller passed. */
export function createRunLog({ report, invocation, startedAt, finishedAt, cwd, resilientVersion }: RunLogInput): RunLog {
  return redactDeep({
    logFormat: 1 as const,
    resilientVersion,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    cwd,
    invocation,
    ...report,
  })
}

/** A file is a run log resilient can show: checked loosely so that a newer field never hides an old log. */
export function isRunLog(value: unknown): value is RunLog {
  const log = value as Partial<RunLog> | null
  return Boolean(log && log.logFormat === 1 && typeof log.tool === 'string' && typeof log.startedAt === 'string' && Array.isArray(log.attempts))
}
