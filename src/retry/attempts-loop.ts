import type { Diagnosis, Failure, RuleErrorHandler } from '../diagnose/types.js'
import type { InterruptSignal } from '../exec/interrupts.js'
import { exitCodeForSignal } from '../exec/signals.js'
import type { ChildResult } from '../exec/run-child.js'
import { adoptPlan, withoutLeaving } from '../plan/confirm.js'
import { relayBehind } from '../plan/relay.js'
import type { AttemptRecord, Host, PlannedAttempt, RunPlan, RunResult, Source } from '../plan/types.js'
import { adviceSubject } from '../diagnose/remedies.js'
import { adviceFor } from '../tools/advice.js'
import type { CommandLine } from '../tools/types.js'
import { hostLabelOfSource } from '../url.js'
import { formatCommand } from '../tools/argv/format-command.js'
import { decideNext } from './policy.js'
import { asksTheIndex, asksWhetherAlive, foundListedBefore, givingUpStatus, nothingAnswers } from './what-happened.js'
import type { Fix, Reporter } from './types.js'

/** Runs one attempt. `signal`, when given, stops it early (ChildResult.abortedBecause says why). */
export type Exec = (command: CommandLine, attempt: { planned: PlannedAttempt; number: number; signal?: AbortSignal }) => Promise<ChildResult>
/**
 * Asks the index itself when the output cannot tell a missing package from a failing index; `again`: an earlier
 * attempt on this source was found listed by the same question (src/retry/probe.ts).
 */
export type Probe = (source: Source, failure: Diagnosis, again?: boolean) => Promise<Diagnosis | undefined>
/** Started with each attempt; aborting `signal` stops it (hedged detection, src/retry/hedge.ts, plugs in here). */
export interface AttemptWatch {
  signal: AbortSignal
  stop(): void
}

export interface AttemptsDeps {
  exec: Exec
  sleep: (ms: number) => Promise<void>
  now: () => number
  reporter: Reporter
  probe?: Probe
  /** After every attempt: what it tells about the hosts it contacted (state/run-memory.ts). */
  book?: (outcome: { ok: boolean; diagnosis: Diagnosis | null; source: Source }, hostsContacted: readonly Host[]) => void
  /**
   * Asks the person for a fix when none is automatic (proxy, credentials, TLS, externally-managed). Absent when
   * nobody can answer: no terminal, CI, --no-input, or --yes (whose safe default is to stop).
   */
  ask?: (question: { diagnosis: Diagnosis; source: Source; command: CommandLine }) => Promise<Fix | undefined>
  /** The user's interrupt, if any arrived (checked after every wait: a Ctrl-C during a pause stops the run). */
  interrupted?: () => InterruptSignal | undefined
  watch?: (attempt: PlannedAttempt, number: number) => AttemptWatch | undefined
  /**
   * Whether a source answers resilient's own small request now; undefined when it cannot tell. Asked of every source
   * left (of a sole source, itself) after a timeout or a dropped connection, on which the tool has already spent its
   * own timeout and retries: when none answers, another attempt would wait as long again.
   */
  alive?: (source: Source) => Promise<boolean | undefined>
  /**
   * For a plan not sure of the index the tool uses (RunPlan.unconfirmed): asks the tool, before any attempt or probe
   * leaves that index, and returns the plan to go on with (plan/confirm.ts). Absent, nothing leaves it.
   */
  confirmSource?: (plan: RunPlan) => Promise<RunPlan>
  /** Defaults to the rules of src/diagnose, loaded on the first failure only; a rule that throws goes to `onRuleError`. */
  diagnose?: (failure: Failure, onRuleError: RuleErrorHandler) => Diagnosis
  random?: () => number
}

/** The command of an attempt as it runs: its plan, plus what the run added (a retry's settings, no cache, the person's fixes). */
export function commandFor(plan: RunPlan, attempt: PlannedAttempt, bypassCache: boolean, fixes: readonly Fix[], retry = false): CommandLine {
  const { adapter } = plan.invocation
  let command = attempt.command
  if (plan.networked && retry && adapter.forRetry) command = adapter.forRetry(command)
  if (plan.networked && bypassCache && adapter.bypassCache) command = adapter.bypassCache(command)
  for (const fix of fixes) {
    if (fix.env) command = { ...command, env: { ...command.env, ...fix.env } }
    if (fix.rewrite) command = fix.rewrite(command)
  }
  return command
}

function stalledDiagnosis(reason: string): Diagnosis {
  return { category: 'timeout', ruleId: 'resilient-stall', summary: reason, evidence: [reason], facts: {}, remedy: { kind: 'switch-mirror' }, retryable: true,
    nextStep: 'resilient stops a stalled download and tries another source; if every source stalls, check this machine\'s network or proxy.' }
}

async function loadRules(): Promise<NonNullable<AttemptsDeps['diagnose']>> {
  const { diagnose } = await import('../diagnose/index.js')
  return (failure, onRuleError) => diagnose(failure, undefined, onRuleError)
}

/** A broken rule is skipped; --verbose says which, so that it gets fixed rather than silently missing. */
const reportRuleError = (reporter: Reporter): RuleErrorHandler => (rule, error) =>
  reporter.verbose?.(`diagnosis rule ${rule.id} failed and was skipped: ${error instanceof Error ? error.message : String(error)}`)

/** A signal while no tool ran: resilient ends as that signal would have ended it (re-raised by the CLI). */
function interruptedBetweenAttempts(signal: InterruptSignal): Omit<RunResult, 'durationMs' | 'attempts'> {
  return { outcome: 'interrupted', exitCode: exitCodeForSignal(signal), signal }
}

/** Runs the plan: each attempt, its diagnosis, one booking, then the next step the policy picks, until done. */
export async function runAttempts(planned: RunPlan, deps: AttemptsDeps): Promise<RunResult> {
  let plan = planned
  const started = deps.now()
  const attempts: AttemptRecord[] = []
  const fixes: Fix[] = []
  const { networked, invocation } = plan
  let queue = plan.attempts.slice(0, networked ? plan.limits.maxAttempts : 1)
  let current = queue.shift()!
  let bypassCache = false
  // Nothing leaves the index the tool uses, and no probe names the package to another, before that index is certain.
  const confirm = async (): Promise<void> => {
    if (!plan.unconfirmed) return
    const next = deps.confirmSource ? await deps.confirmSource(plan) : withoutLeaving(plan)
    if (next === plan) return
    plan = next
    ;({ current, queue } = adoptPlan(plan, attempts, current))
  }
  const finish = (result: Omit<RunResult, 'durationMs' | 'attempts'>): RunResult => {
    const full = { ...result, durationMs: deps.now() - started, attempts, fixes: fixes.length ? fixes.map(fix => fix.description) : undefined }
    const last = attempts.at(-1)?.source
    deps.reporter.finished(full, { switchedTo: last && last.id !== plan.attempts[0]!.source.id ? last : undefined })
    return full
  }

  for (let number = 1; ; number++) {
    if (number === 1 && networked && current.source.url !== undefined) await confirm()
    const command = commandFor(plan, current, bypassCache, fixes, number > 1)
    if (networked) deps.reporter.attemptStarted({ number, total: number + queue.length, source: current.source, hosts: current.hosts, command: formatCommand(command), retry: number > 1, reason: current.reason })
    // The watch's requests go to other sources too: none while the index the tool uses is not certain.
    const watch = networked && !plan.unconfirmed ? deps.watch?.(current, number) : undefined
    const result = await deps.exec(command, { planned: current, number, signal: watch?.signal }).finally(() => watch?.stop())
    const record: AttemptRecord = { number, source: current.source, command, hosts: current.hosts, exitCode: result.exitCode, durationMs: result.durationMs, diagnosis: null,
      ...(result.progress && { progress: result.progress }), ...(result.abortedBecause && { stopped: true }) }
    attempts.push(record)
    if (result.exitCode === 0 && !result.abortedBecause) {
      if (networked && !(plan.unconfirmed && current.source.url === undefined)) deps.book?.({ ok: true, diagnosis: null, source: current.source }, current.hosts)
      return finish({ outcome: networked ? 'succeeded' : 'ran-once', exitCode: 0 })
    }
    // An interrupted attempt says nothing about the index: nothing is booked, nothing retried. The tool's own status
    // is the run's, and a death by signal is passed up to be re-raised (docs/process.md). A tool killed by a signal
    // resilient never saw (`kill <tool pid>`, the OOM killer) was stopped too, not failed by the network; only the
    // stop resilient itself made (a stall) and a closed output (below) are not interrupts.
    if (result.interrupted || (result.signal && !result.abortedBecause && !result.brokenPipe)) return finish({ outcome: 'interrupted', exitCode: result.exitCode, signal: result.signal })
    // A closed output (`| head`) is the reader's doing, not the network's: the tool ended as it would have alone. So
    // did the program npx or `pnpm dlx` started: its failure is its own.
    if (!networked || result.brokenPipe || result.programRan) return finish({ outcome: 'ran-once', exitCode: result.exitCode, signal: result.signal })
    if (result.spawnError) return finish({ outcome: 'failed', exitCode: result.exitCode, stopReason: result.spawnError })

    const diagnose = deps.diagnose ?? await loadRules()
    let diagnosis = result.abortedBecause ? stalledDiagnosis(result.abortedBecause)
      : diagnose({ tool: invocation.tool, output: result.output, exitCode: result.exitCode, command: command.argv, proxies: plan.proxies, relayed: result.relayed, relay: relayBehind(plan, current) }, reportRuleError(deps.reporter))
    if (deps.probe && asksTheIndex(diagnosis)) {
      await confirm()
      diagnosis = (await deps.probe(current.source, diagnosis, foundListedBefore(attempts, current.source))) ?? diagnosis
    }
    record.diagnosis = diagnosis
    deps.reporter.attemptFailed({ number, source: current.source, diagnosis, durationMs: result.durationMs, exitCode: result.exitCode, stopped: record.stopped })

    // Asking the other sources whether they answer is a request to them: the tool's index is made certain first.
    if (deps.alive && asksWhetherAlive(diagnosis)) await confirm()
    const noSourceAnswers = await nothingAnswers(diagnosis, plan.attempts.length === 1 ? [current] : queue, deps.alive)
    const decide = () => decideNext({ diagnosis, attempt: current, history: attempts, queue, plan, elapsedMs: deps.now() - started, random: deps.random, noSourceAnswers })
    let decision = decide()
    if (plan.unconfirmed && decision.action === 'attempt' && decision.queue[0]!.source.url !== undefined) {
      await confirm()
      decision = decide()
    }
    // Booked against the index the attempt really used: an index still unconfirmed is a guess, so nothing is booked.
    if (!(plan.unconfirmed && current.source.url === undefined)) deps.book?.({ ok: false, diagnosis, source: current.source }, current.hosts)
    if (decision.action === 'stop' && deps.ask && attempts.length < plan.limits.maxAttempts) {
      const fix = await deps.ask({ diagnosis, source: current.source, command })
      const signal = deps.interrupted?.()
      if (signal) return finish(interruptedBetweenAttempts(signal))
      if (fix) {
        fixes.push(fix)
        // The fix (a proxy, a token, a host to trust) is for the tool's own connection: the relay's requests upstream
        // would not carry it, so the fixed attempt goes to the index as the person typed it.
        const again = current.via === 'relay' && plan.relay ? plan.relay.replaced : current
        decision = { action: 'attempt', queue: [again, ...queue], waitMs: 0, bypassCache: false, reason: `retrying with your fix: ${fix.description}` }
      }
    }
    // A retry must read the input the first attempt read; when it cannot be given again, there is none.
    if (decision.action === 'attempt' && result.cannotRepeat) decision = { action: 'stop', reason: `no retry: ${result.cannotRepeat}` }
    if (decision.action === 'stop') {
      // The advice is the tool's own (ToolAdapter.advice) for the cause; a stop that calls for its own hint wins.
      const subject = adviceSubject(diagnosis)
      const hint = decision.hint ?? (subject && adviceFor(invocation.adapter, subject, !plan.noSwitchReason)) ?? diagnosis.nextStep
      return finish({ outcome: 'gave-up', exitCode: givingUpStatus(attempts), finalDiagnosis: diagnosis, stopReason: decision.reason, hint })
    }
    if (decision.waitMs > 0) {
      await deps.reporter.waiting({ seconds: decision.waitMs / 1000, reason: decision.reason, endsAt: deps.now() + decision.waitMs, next: hostLabelOfSource(decision.queue[0]!.source) })
      await deps.sleep(decision.waitMs)
      const signal = deps.interrupted?.()
      if (signal) return finish(interruptedBetweenAttempts(signal))
    } else {
      deps.reporter.note(decision.reason)
    }
    ;[current, ...queue] = decision.queue as [PlannedAttempt, ...PlannedAttempt[]]
    bypassCache ||= decision.bypassCache
  }
}
