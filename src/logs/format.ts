import { printable } from '../redact.js'
import type { RunLog } from './run-log.js'

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`
}

/** `2026-11-22 01:36:14` in local time: what a person compares with their terminal's history. */
function when(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
}

function outcome(log: RunLog): string {
  const attempts = log.attempts.length
  const last = log.attempts.at(-1)
  switch (log.outcome) {
    case 'succeeded':
      return attempts > 1 ? `recovered in ${attempts} attempts (on ${last?.source})` : 'succeeded'
    case 'gave-up':
      return `gave up after ${attempts} attempt${attempts > 1 ? 's' : ''}: ${last?.diagnosis?.category ?? 'failed'}`
    case 'ran-once':
      return log.exitCode === 0 ? 'ran once' : 'failed (not retried)'
    default:
      return log.outcome
  }
}

/**
 * One line per run, for `resilient logs`: when, outcome, exit code, duration, command, each column as wide as its
 * widest cell (an outcome names a mirror and has no fixed length), so the columns line up.
 */
export function formatLogTable(logs: readonly RunLog[]): string[] {
  const rows = logs.map(log => [when(log.startedAt), outcome(log), `exit ${log.exitCode}`, seconds(log.durationMs), printable(log.invocation.join(' '))])
  const widths = [0, 1, 2, 3].map(column => Math.max(0, ...rows.map(row => row[column]!.length)))
  return rows.map(([started, result, exit, duration, command]) =>
    [started!.padEnd(widths[0]!), result!.padEnd(widths[1]!), exit!.padEnd(widths[2]!), duration!.padStart(widths[3]!), command].join('  '))
}

/** Every attempt of one run, for `resilient logs --last`. */
export function formatLogDetails(log: RunLog, file: string): string {
  const lines = [
    printable(log.invocation.join(' ')),
    `  started ${when(log.startedAt)} in ${printable(log.cwd)}, resilient ${printable(log.resilientVersion)}`,
    `  ${outcome(log)}, exit ${log.exitCode}, ${seconds(log.durationMs)}`,
  ]
  for (const [index, attempt] of log.attempts.entries()) {
    lines.push(`  attempt ${index + 1} on ${attempt.source}: exit ${attempt.exitCode} after ${seconds(attempt.durationMs)}`)
    lines.push(`    $ ${printable(attempt.command.join(' '))}`)
    if (attempt.diagnosis) {
      lines.push(`    ${attempt.diagnosis.category}: ${attempt.diagnosis.summary}${attempt.diagnosis.rule ? ` [${attempt.diagnosis.rule}]` : ''}`)
      for (const evidence of attempt.diagnosis.evidence) lines.push(`    │ ${printable(evidence)}`)
    }
  }
  if (log.hint) lines.push(`  → what to do: ${printable(log.hint)}`)
  lines.push(`  log: ${file}`)
  return lines.join('\n')
}
