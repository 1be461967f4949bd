import type { RunResult } from '../plan/types.js'
import type { MirrorPages } from '../relay/page-authority.js'
import type { HostTally } from '../relay/types.js'
import { redactDeep } from '../redact.js'

/**
 * The `--report` content and the run log's core: every attempt, where it went, what it contacted, what happened;
 * and, for a run through the relay, what each source behind it did (requests, bytes, failovers, resumed bytes).
 */
export interface RelayReport {
  sources: Record<string, HostTally>
  lookedAhead?: { fetched: number; used: number; usedBytes: number }
  /** Pages the tool got from mirrors because the index failed (src/relay/page-authority.ts). */
  mirrorPages?: MirrorPages
}

export function toReport(tool: string, result: RunResult, relay?: RelayReport) {
  return redactDeep({
    tool,
    exitCode: result.exitCode,
    durationMs: result.durationMs,
    outcome: result.outcome,
    attempts: result.attempts.map(attempt => ({
      command: [...Object.entries(attempt.command.env).map(([k, v]) => `${k}=${v}`), ...attempt.command.argv],
      source: attempt.source.label,
      hosts: attempt.hosts.map(host => host.host),
      exitCode: attempt.exitCode,
      // Ended by resilient itself (a stall, hedged detection): its exitCode is resilient's signal, never the run's.
      stoppedByResilient: Boolean(attempt.stopped),
      durationMs: attempt.durationMs,
      diagnosis: attempt.diagnosis && { category: attempt.diagnosis.category, summary: attempt.diagnosis.summary, evidence: attempt.diagnosis.evidence, rule: attempt.diagnosis.ruleId },
      throughput: attempt.progress ?? null,
    })),
    hint: result.hint ?? null,
    ...(relay && { relay: { sources: relay.sources, ...(relay.lookedAhead && { lookAhead: { fetched: relay.lookedAhead.fetched, used: relay.lookedAhead.used } }),
      ...(relay.mirrorPages && { mirrorPages: relay.mirrorPages }) } }),
  })
}
