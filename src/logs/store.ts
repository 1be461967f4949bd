import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { writeFileAtomically } from '../files/locked-file.js'
import { join } from 'node:path'
import { isRunLog, type RunLog } from './run-log.js'

// `2026-11-22T01-36-14-123Z-pip-4242.json`: names sort in time order, and the pid keeps parallel runs apart.
const LOG_NAME = /^\d{4}-\d\d-\d\dT[\d-]+Z-[A-Za-z0-9._-]+-\d+\.json$/

export function logFileName(log: Pick<RunLog, 'startedAt' | 'tool'>, pid: number): string {
  return `${log.startedAt.replace(/[:.]/g, '-')}-${log.tool.replace(/[^A-Za-z0-9._-]/g, '_')}-${pid}.json`
}

/**
 * Writes one run log (atomically, readable by its owner only: commands and paths are private even when redacted)
 * and deletes the oldest beyond `keep`. Returns the file written, or undefined when `keep` is 0.
 */
export async function writeRunLog(dir: string, log: RunLog, keep: number, pid = process.pid): Promise<string | undefined> {
  if (keep <= 0) return undefined
  const file = join(dir, logFileName(log, pid))
  // The shared writer: a 0700 directory (nobody can plant a file in it), a 0600 file, temp file + rename. Without
  // fsync: every run writes a new log, which resilient writes after the tool has exited and the person waits for;
  // the disk flush was the longest part of that wait (docs/benchmarks.md). A crash may leave a log empty or lose it,
  // and readRunLogs skips a log it cannot read.
  await writeFileAtomically(file, `${JSON.stringify(log, null, 2)}\n`, { durable: false })
  rotateRunLogs(dir, keep)
  return file
}

/** Keeps the newest `keep` logs. Another run rotating at the same time is harmless: deletes are forced. */
export function rotateRunLogs(dir: string, keep: number): string[] {
  const old = logFiles(dir).slice(0, -keep || undefined)
  for (const name of old) rmSync(join(dir, name), { force: true })
  return old
}

function logFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter(name => LOG_NAME.test(name)).sort()
  } catch {
    return []
  }
}

export interface StoredLog {
  file: string
  log: RunLog
}

/** The logs in `dir`, newest first; files that are not readable run logs are skipped and counted. */
export function readRunLogs(dir: string, limit = Infinity): { logs: StoredLog[]; skipped: number } {
  const logs: StoredLog[] = []
  let skipped = 0
  for (const name of logFiles(dir).reverse()) {
    if (logs.length >= limit) break
    const file = join(dir, name)
    try {
      const value: unknown = JSON.parse(readFileSync(file, 'utf8'))
      if (isRunLog(value)) logs.push({ file, log: value })
      else skipped++
    } catch {
      skipped++
    }
  }
  return { logs, skipped }
}
