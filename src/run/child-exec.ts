import { homedir } from 'node:os'
import type { Interrupts } from '../exec/interrupts.js'
import { watchProgress, type ProgressWatch } from '../exec/progress/progress-monitor.js'
import { canSampleTrees, createTreeSampler, type RelayedCounts } from '../exec/progress/tree-counters.js'
import { judgeProgramAttempt, untilProgramStarts, watchProgramStart, type ProgramStartWatch } from '../exec/program-start.js'
import { runChild, type RunChildOptions } from '../exec/run-child.js'
import type { RunPlan } from '../plan/types.js'
import { findSecrets, registerSecrets } from '../redact.js'
import { ownText } from '../own-text.js'
import type { Exec } from '../retry/attempts-loop.js'
import { withLockfileRewrite } from '../tools/lockfile/lockfile-rewrite.js'
import type { Config } from '../config/schema.js'
import { hostLabelOfSource } from '../url.js'
import type { RunReporter } from './reporter.js'
import { routeSignalsTo } from './signal-router.js'
import { describeSilence, SILENT_NOTICE_MS, type Silence } from './silence-notice.js'

/** What the run does once this attempt's tool gives up: the next source planned, none, or none by the person's choice. */
function thenOf(plan: RunPlan, planned: RunPlan['attempts'][number]): Silence['then'] {
  const next = plan.attempts[plan.attempts.indexOf(planned) + 1]
  if (next) return { kind: 'next', source: next.source.label }
  return planned.source.kind === 'private' || planned.source.kind === 'local' ? { kind: 'own' } : { kind: 'none' }
}

/**
 * Once per attempt, when a transfer of the tool has been open SILENT_NOTICE_MS with nothing arriving: one line that
 * says who is silent, how long the tool keeps trying by its own settings, and the way out. In CI too. The tool is
 * never stopped for it. Returns the function that stops watching.
 */
function watchSilence(progress: ProgressWatch, reporter: RunReporter, describe: () => Omit<Silence, 'silentMs'>): () => void {
  const timer = setInterval(() => {
    const silentMs = progress.silentFor()
    if (silentMs === undefined || silentMs < SILENT_NOTICE_MS) return
    clearInterval(timer)
    reporter.note(describeSilence({ ...describe(), silentMs }), { overToolLine: true })
  }, 1000)
  timer.unref()
  return () => clearInterval(timer)
}

/** Routes the signals resilient receives to this run for as long as it lasts; runChild passes them on. */
export function listenForInterrupts(interrupts: Interrupts): () => void {
  return routeSignalsTo(interrupts)
}

/** A pause that a Ctrl-C ends at once (the loop then sees the interrupt and stops). */
export function interruptibleSleep(interrupts: Interrupts) {
  return (ms: number) => new Promise<void>(resolve => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      interrupts.off('signal', done)
      resolve()
    }
    interrupts.on('signal', done)
  })
}

export interface ChildOptions {
  plan: RunPlan
  config: Config
  env: NodeJS.ProcessEnv
  interrupts: Interrupts
  reporter: RunReporter
  usePty: boolean
  /** resilient's descriptor the tool's stdout goes to instead of 1 (`resilient run` keeps stdout for the script). */
  stdoutFd?: number
  /** The tool's stdin for every attempt (src/exec/input/replayable-input.ts). */
  input: RunChildOptions['input']
  /** Receives the running attempt's progress watch (undefined once it ended): hedged detection reads its bytes. */
  onAttemptProgress?: (progress: ProgressWatch | undefined) => void
  /** Called when an attempt's tool has started. */
  onSpawn?: () => void
  /** The run's relay's running totals: an attempt through it is measured by them (src/run/relay.ts). */
  relayed?: () => RelayedCounts
}

/**
 * The loop's `exec`: one real child in the attempt's directory, its environment the caller's plus the attempt's,
 * watched for stalls (network attempts only), stoppable by the loop's signal, with the attempt's lockfile rewrite
 * (yarn 1 on a mirror) put back whatever happens.
 */
export function childExec({ plan, config, env, interrupts, reporter, usePty, stdoutFd, input, onAttemptProgress, onSpawn: onToolStart, relayed }: ChildOptions): Exec {
  return async (command, { planned, signal }) => {
    const host = hostLabelOfSource(planned.source)
    // Through the relay, its own count of what it passed to the tool: exact, and without `ss` ten times a second.
    const byRelay = planned.via === 'relay' && relayed && canSampleTrees() ? { createSampler: (pid: number) => createTreeSampler(pid, relayed) } : {}
    const progress = plan.networked ? watchProgress({ stall: config.stall, host, ...byRelay,
      report: line => reporter.throughput ? reporter.throughput(line) : reporter.verbose(line) }) : undefined
    const { adapter, args } = plan.invocation
    // npx, `pnpm dlx`...: the program the tool fetched is never stopped, nor run again (src/exec/program-start.ts).
    const program = plan.networked && adapter.program?.runs(args) ? adapter.program : undefined
    let start: ProgramStartWatch | undefined
    const anyAbort = progress?.abort && signal ? AbortSignal.any([progress.abort, signal]) : progress?.abort ?? signal
    // The look that lets a stop through is the answer for the attempt: what follows is the stop's doing (settle).
    const abort = program ? untilProgramStarts(anyAbort, () => start?.settle() !== false) : anyAbort
    onAttemptProgress?.(progress)
    // A spinner while the tool is silent, in a terminal, where resilient reads the output it can clear it before.
    const quiet = plan.networked ? reporter.watchQuietTool?.(adapter.name, host) : undefined
    const silence = progress && watchSilence(progress, reporter, () => ({ host, tool: adapter.name, then: thenOf(plan, planned),
      patience: adapter.patience?.({ args, env, cwd: planned.cwd, home: env.HOME || homedir(), executable: plan.invocation.executable }) }))
    const onSpawn = (pid: number) => {
      progress?.onSpawn(pid)
      // The program may wait for its person (a scaffolder's questions): no spinner over it.
      if (program) start = watchProgramStart(pid, { onStart: () => quiet?.stop(), ownStep: program.ownStep })
      onToolStart?.()
    }
    const attempt = await withLockfileRewrite(planned.lockfileRewrite, adapter.lockfile?.format, () =>
      runChild(command, { env: { ...env, ...command.env, RESILIENT_ACTIVE: '1' }, cwd: planned.cwd, interrupts, pty: usePty,
        // Only a run that may be retried is read: the diagnosis needs its output; any other writes to ours itself.
        capture: plan.networked, input, output: { stdout: stdoutFd ?? 1, stderr: 2 }, abort, onSpawn, onOutput: quiet?.output }))
      .finally(() => { onAttemptProgress?.(undefined); quiet?.stop(); start?.stop(); silence?.() })
    const verdict = program && judgeProgramAttempt(program, { args, output: attempt.output, started: start?.seen(), stopped: Boolean(attempt.abortedBecause), tool: plan.invocation.launcher[0]! })
    // As a shell says it ("bash: <path>: cannot execute: ..."); a network run says it when it gives up.
    if (attempt.spawnError && !plan.networked) process.stderr.write(ownText(`resilient: ${attempt.spawnError}\n`, env))
    reporter.mask?.(registerSecrets(findSecrets(attempt.output)))
    return { ...attempt, progress: progress?.stop(), cannotRepeat: attempt.cannotRepeat ?? verdict?.refusal, ...(verdict?.programRan && { programRan: true }) }
  }
}
