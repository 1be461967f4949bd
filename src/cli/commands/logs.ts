import { formatLogDetails, formatLogTable } from '../../logs/format.js'
import { logsDirectory } from '../../paths.js'
import { readRunLogs } from '../../logs/store.js'
import { printable, redact, redactDeep } from '../../redact.js'
import { ownText } from '../../own-text.js'

export interface LogsOptions {
  last?: boolean
  json?: boolean
  limit?: number
}

/** `resilient logs [--last] [--json] [-n <count>]`: what past runs did, newest first. Returns the exit code. */
export async function runLogs(options: LogsOptions): Promise<number> {
  const dir = logsDirectory(process.env)
  const { logs, skipped } = readRunLogs(dir, options.last ? 1 : options.limit ?? 20)
  // Logs are redacted when written; redacting again guards against files written by an older resilient.
  if (options.json) {
    const value = options.last ? logs[0]?.log ?? null : logs.map(entry => entry.log)
    process.stdout.write(`${JSON.stringify(redactDeep(value), null, 2)}\n`)
    return options.last && !logs.length ? 1 : 0
  }
  if (!logs.length) {
    process.stderr.write(`No run logs yet in ${dir}.\n  → Every \`resilient <tool> ...\` run writes one there (config: logs.keep).\n`)
    return options.last ? 1 : 0
  }
  const text = options.last ? formatLogDetails(logs[0]!.log, logs[0]!.file) : formatLogTable(logs.map(entry => entry.log)).join('\n')
  // Stored logs hold outside text (argv, cwd, tool output): replayed without any control byte.
  process.stdout.write(`${ownText(printable(redact(text), { multiline: true }))}\n`)
  if (!options.last) process.stderr.write(`(${logs.length} most recent, newest first, from ${dir}${skipped ? `; ${skipped} unreadable file(s) skipped` : ''})\n`)
  return 0
}
