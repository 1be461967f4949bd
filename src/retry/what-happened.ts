import type { Diagnosis } from '../diagnose/types.js'
import type { AttemptRecord, PlannedAttempt, Source } from '../plan/types.js'

/** What the loop reads from what really happened, beyond the tool's last line. */

/**
 * A verdict the index itself can confirm or refute: a package not found, a conflict that only one package's listing
 * explains (pip with a constraints file whose index page failed: "The user requested (constraint) x==1.0"), or a
 * tool that found nothing for a package and does not say why (pip's "(from versions: none)": `other`).
 */
export function asksTheIndex(diagnosis: Diagnosis): boolean {
  return Boolean(diagnosis.facts.package) && ['package_not_found', 'resolution_conflict', 'other'].includes(diagnosis.category)
}

/** An earlier attempt on `source` failed although resilient's own request found the package listed there. */
export function foundListedBefore(attempts: readonly AttemptRecord[], source: Source): boolean {
  return attempts.slice(0, -1).some(record => record.source.id === source.id && record.diagnosis?.ruleId === 'resilient-index-probe' && record.diagnosis.facts.status === 200)
}

/** Whether the sources left are asked if they answer at all (nothingAnswers): after a timeout or a dropped connection. */
export function asksWhetherAlive(diagnosis: Diagnosis): boolean {
  return diagnosis.category === 'timeout' || diagnosis.category === 'connection'
}

/** After a timeout or a dropped connection: whether every source left stays silent to a request of resilient's own. */
export async function nothingAnswers(diagnosis: Diagnosis, left: readonly PlannedAttempt[], alive: ((source: Source) => Promise<boolean | undefined>) | undefined): Promise<boolean> {
  if (!alive || !left.length || !asksWhetherAlive(diagnosis)) return false
  const sources = [...new Map(left.map(attempt => [attempt.source.id, attempt.source])).values()]
  return (await Promise.all(sources.map(alive))).every(answer => answer === false)
}

/**
 * The status of a run resilient gives up on: the tool's own, from the last attempt that ran to its end. An attempt
 * resilient stopped itself (a stall, hedged detection) ended on resilient's signal, which says nothing of the tool:
 * when no attempt ran to its end, the tool's generic failure, 1.
 */
export function givingUpStatus(records: readonly AttemptRecord[]): number {
  return records.filter(record => !record.stopped).at(-1)?.exitCode ?? 1
}
