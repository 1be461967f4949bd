import { configSchema } from '../../../src/config/schema.js'
import { DEFAULT_REMEDIES, nextStepFor } from '../../../src/diagnose/remedies.js'
import type { Category, Diagnosis, Facts } from '../../../src/diagnose/types.js'
import { planRun, type PlanRequest } from '../../../src/plan/plan-run.js'
import type { Host, RunPlan, RunResult } from '../../../src/plan/types.js'
import { runAttempts, type AttemptsDeps } from '../../../src/retry/attempts-loop.js'
import type { Reporter } from '../../../src/retry/types.js'
import { TOOLS, type ToolName } from '../../../src/tools/index.js'

/** A diagnosis as the rules would give it, with the category's default remedy (the loop's tests do not depend on rule wording). */
export function diagnosisOf(category: Category, facts: Facts = {}): Diagnosis {
  const remedy = DEFAULT_REMEDIES[category]
  return { category, ruleId: `test-${category}`, summary: `${category.replace(/_/g, ' ')}${facts.host ? ` (${facts.host})` : ''}`, evidence: [], facts, remedy,
    retryable: remedy.kind !== 'give-up', nextStep: nextStepFor(category, remedy) }
}

/** The plan of `<tool> <args>` with `config`, as planRun makes it (no files read: the user index and lockfile are given). */
export function planOf(tool: ToolName, args: string, config: Record<string, unknown> = {}, request: Partial<PlanRequest> = {}): RunPlan {
  const adapter = TOOLS[tool]
  const invocation = { tool, adapter, launcher: [tool], args: args.split(' '), executable: `/usr/bin/${tool}` }
  return planRun({ invocation, cwd: '/project', config: configSchema.parse(config), userIndex: null, userKnobs: false, ...request })
}

/** What a scripted attempt does: exits with a code after `ms`, failing with `diagnosis`. */
export interface Step {
  exitCode?: number
  diagnosis?: Diagnosis
  interrupted?: 'SIGINT' | 'SIGTERM'
  ms?: number
}

/** Runs `plan` against scripted attempts (np's stub-execa), on a fake clock; records everything the loop does. */
export async function runScripted(plan: RunPlan, steps: Step[], extra: Partial<AttemptsDeps> = {}) {
  const calls: { argv: string[]; env: Record<string, string>; source: string }[] = []
  const events: string[] = []
  const notes: string[] = []
  const sleeps: number[] = []
  const bookings: { ok: boolean; category?: string; hosts: readonly Host[] }[] = []
  const starts: { number: number; total: number; starts: number }[] = []
  let clock = 0
  let interrupted: 'SIGINT' | 'SIGTERM' | undefined
  const reporter: Reporter = {
    attemptStarted: e => { events.push(`start ${e.number}/${e.total} ${e.source.id}`); starts.push({ number: e.number, total: e.total, starts: clock }) },
    attemptFailed: e => { events.push(`failed ${e.number} ${e.diagnosis.category}`) },
    waiting: e => { events.push(`wait ${e.seconds}`) },
    note: message => { notes.push(message) },
    finished: (result: RunResult) => { events.push(`finished ${result.outcome} ${result.exitCode}`) },
  }
  const result = await runAttempts(plan, {
    exec: async (command, { planned }) => {
      const step = steps[calls.length] ?? { exitCode: 0 }
      calls.push({ argv: command.argv, env: command.env, source: planned.source.id })
      clock += step.ms ?? 1000
      if (step.interrupted) interrupted = step.interrupted
      return { exitCode: step.exitCode ?? (step.diagnosis || step.interrupted ? 1 : 0), output: step.diagnosis?.category ?? '', durationMs: step.ms ?? 1000, interrupted: step.interrupted }
    },
    diagnose: () => steps[calls.length - 1]!.diagnosis!,
    sleep: async ms => { sleeps.push(ms); clock += ms },
    now: () => clock,
    random: () => 0.5,
    reporter,
    interrupted: () => interrupted,
    book: (outcome, hosts) => { bookings.push({ ok: outcome.ok, category: outcome.diagnosis?.category, hosts }) },
    ...extra,
  })
  return { result, calls, events, notes, sleeps, bookings, starts, clock: () => clock }
}
