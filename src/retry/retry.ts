import type { Config } from '../config/schema.js'
import type { Diagnosis } from '../diagnose/types.js'
import type { ChildResult } from '../exec/run-child.js'
import type { Invocation } from '../tools/parse-invocation.js'
import type { CommandLine } from '../tools/types.js'
import { formatCommand } from './format.js'
import { decideNext } from './policy.js'
import type { AttemptRecord, Fix, Reporter, RunResult, Source, SourcePlan } from './types.js'

/** Runs one attempt; `source` names the index it talks to (a stalled attempt's summary says which). */
export type Exec = (command: CommandLine, attempt: { source: Source }) => Promise<ChildResult>
/** Asks the index itself when the output cannot tell a missing package from a failing index. */
export type Probe = (source: Source, failure: Diagnosis) => Promise<Diagnosis | undefined>

export interface RetryDeps {
  exec: Exec
  sleep: (ms: number) => Promise<void>
  now: () => number
  reporter: Reporter
  probe?: Probe
  random?: () => number
  /** Called after every attempt: mirror health and learned order hook in here. */
  onAttempt?: (record: AttemptRecord) => void
  /**
   * Asks the person for a fix when none is automatic (proxy, credentials, TLS, externally-managed). Absent when
   * nobody can answer: no terminal, CI, --no-input, or --yes (whose safe default is to stop).
   */
  ask?: (question: { diagnosis: Diagnosis; source: Source; command: CommandLine }) => Promise<Fix | undefined>
  /** The user's interrupt, if any arrived (checked after every wait: a Ctrl-C during a pause stops the run). */
  interrupted?: () => 'SIGINT' | 'SIGTERM' | 'SIGHUP' | undefined
}

export interface RetryInput {
  invocation: Invocation
  plan: SourcePlan
  config: Config
  /** The user set the tool's own timeouts: leave them alone. */
  userKnobs: boolean
  /** The proxies the tool is configured with: the diagnosis calls a failure the proxy's only at these addresses. */
  proxies?: readonly string[]
}

/** The command of an attempt on `source`: the one place where adapters rewrite arguments. */
export function buildCommand(input: RetryInput, source: Source, bypassCache: boolean, fixes: readonly Fix[] = []): CommandLine {
  const { adapter, launcher, args } = input.invocation
  let command: CommandLine = { argv: [...launcher, ...args], env: {} }
  if (adapter.classify(args) !== 'network') return command
  if (source.url) command = adapter.applyIndex(command, source.url)
  if (input.config.fastDetect && !input.userKnobs && adapter.tuneForFastDetection) command = adapter.tuneForFastDetection(command)
  if (bypassCache && adapter.bypassCache) command = adapter.bypassCache(command)
  for (const fix of fixes) {
    if (fix.env) command = { ...command, env: { ...command.env, ...fix.env } }
    if (fix.rewrite) command = fix.rewrite(command)
  }
  return command
}

function stalledDiagnosis(reason: string): Diagnosis {
  return { category: 'timeout', ruleId: 'resilient-stall', summary: reason, evidence: [reason], facts: {},
    remedy: { kind: 'switch-mirror' }, retryable: true }
}

/** Runs the command, diagnoses each failure, and retries on the next source until it succeeds or nothing can help. */
export async function runWithRetries(input: RetryInput, deps: RetryDeps): Promise<RunResult> {
  const { invocation, plan, config } = input
  const started = deps.now()
  const attempts: AttemptRecord[] = []
  const networked = invocation.adapter.classify(invocation.args) === 'network'
  let source = plan.primary
  let bypassCache = false
  const fixes: Fix[] = []
  const finish = (result: Omit<RunResult, 'durationMs' | 'attempts'>): RunResult => {
    const full = { ...result, durationMs: deps.now() - started, attempts, fixes: fixes.length ? fixes.map(fix => fix.description) : undefined }
    const switchedTo = attempts.at(-1)?.source
    deps.reporter.finished(full, { switchedTo: switchedTo && switchedTo.id !== plan.primary.id ? switchedTo : undefined })
    return full
  }

  for (let number = 1; ; number++) {
    const command = buildCommand(input, source, bypassCache, fixes)
    if (networked) deps.reporter.attemptStarted({ number, maxAttempts: config.maxAttempts, source, command: formatCommand(command), retry: number > 1 })
    const result = await deps.exec(command, { source })
    const record: AttemptRecord = { number, source, command, exitCode: result.exitCode, durationMs: result.durationMs, diagnosis: null, ...(result.progress && { progress: result.progress }) }
    attempts.push(record)
    if (result.exitCode === 0 && !result.abortedBecause) {
      deps.onAttempt?.(record)
      return finish({ outcome: networked ? 'succeeded' : 'ran-once', exitCode: 0 })
    }
    if (result.interrupted) {
      deps.onAttempt?.(record)
      return finish({ outcome: 'interrupted', exitCode: result.interrupted === 'SIGTERM' ? 143 : result.interrupted === 'SIGHUP' ? 129 : 130 })
    }
    if (!networked) return finish({ outcome: 'ran-once', exitCode: result.exitCode })
    if (result.spawnError) return finish({ outcome: 'failed', exitCode: 127, stopReason: result.spawnError })

    let diagnosis = result.abortedBecause
      ? stalledDiagnosis(result.abortedBecause)
      // The rules are loaded on the first failure only: a run that succeeds never pays for them.
      : (await import('../diagnose/index.js')).diagnose({ tool: invocation.tool, output: result.output, exitCode: result.exitCode, command: command.argv, proxies: input.proxies })
    if (diagnosis.category === 'package_not_found' && deps.probe) diagnosis = (await deps.probe(source, diagnosis)) ?? diagnosis
    record.diagnosis = diagnosis
    deps.onAttempt?.(record)
    deps.reporter.attemptFailed({ number, source, diagnosis, durationMs: result.durationMs, exitCode: result.exitCode })

    let decision = decideNext({ diagnosis, source, plan, attempts, config, elapsedMs: deps.now() - started, random: deps.random })
    if (decision.action === 'stop' && deps.ask && attempts.length < config.maxAttempts) {
      const fix = await deps.ask({ diagnosis, source, command })
      if (deps.interrupted?.()) return finish({ outcome: 'interrupted', exitCode: 130 })
      if (fix) {
        fixes.push(fix)
        decision = { action: 'attempt', source, waitMs: 0, bypassCache: false, reason: `retrying with your fix: ${fix.description}` }
      }
    }
    if (decision.action === 'stop') {
      const exitCode = result.exitCode
      return finish({ outcome: 'gave-up', exitCode, finalDiagnosis: diagnosis, stopReason: decision.reason, hint: decision.hint ?? diagnosis.hint ?? diagnosis.nextStep })
    }
    if (decision.waitMs > 0) {
      await deps.reporter.waiting({ seconds: decision.waitMs / 1000, reason: decision.reason })
      await deps.sleep(decision.waitMs)
      const signal = deps.interrupted?.()
      if (signal) return finish({ outcome: 'interrupted', exitCode: signal === 'SIGTERM' ? 143 : signal === 'SIGHUP' ? 129 : 130 })
    } else {
      deps.reporter.note(decision.reason)
    }
    source = decision.source
    bypassCache ||= decision.bypassCache
  }
}
