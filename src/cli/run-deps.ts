import { Interrupts, type InterruptSignal } from '../exec/interrupts.js'
import { watchProgress, type ProgressWatch } from '../exec/progress-monitor.js'
import { runChild } from '../exec/run-child.js'
import type { RunPlan } from '../plan/types.js'
import { findSecrets, registerSecrets } from '../redact.js'
import type { Exec } from '../retry/execute.js'
import { withLockfileRewrite } from '../tools/lockfile-rewrite.js'
import type { Config } from '../config/schema.js'
import { labelOf } from '../url.js'
import type { RunReporter } from './ci-reporter.js'
import { redactedChildStreams } from './redacting-stream.js'
import { TerminalReporter } from './reporter.js'

/** Listens for the user's interrupts for as long as the run lasts; the child is stopped by runChild. */
export function listenForInterrupts(interrupts: Interrupts): () => void {
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as InterruptSignal[]).map(signal => {
    const handler = () => interrupts.raise(signal)
    process.on(signal, handler)
    return () => process.off(signal, handler)
  })
  return () => handlers.forEach(off => off())
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
  /** Where the tool's stdout goes instead of ours (`resilient run` keeps stdout for the script). */
  stdout?: NodeJS.WritableStream
  /** Receives the running attempt's progress watch (undefined once it ended): hedged detection reads its bytes. */
  onAttemptProgress?: (progress: ProgressWatch | undefined) => void
}

/**
 * The loop's `exec`: one real child in the attempt's directory, its environment the caller's plus the attempt's,
 * watched for stalls (network attempts only), stoppable by the loop's signal, with the attempt's lockfile rewrite
 * (yarn 1 on a mirror) put back whatever happens.
 */
export function childExec({ plan, config, env, interrupts, reporter, usePty, stdout, onAttemptProgress }: ChildOptions): Exec {
  const childStreams = redactedChildStreams(usePty)
  return async (command, { planned, signal }) => {
    const progress = plan.networked ? watchProgress({ stall: config.stall, host: labelOf(planned.source.indexUrl ?? planned.source.url ?? planned.source.label),
      report: line => reporter instanceof TerminalReporter ? reporter.throughput(line) : reporter.verbose(line) }) : undefined
    const abort = progress?.abort && signal ? AbortSignal.any([progress.abort, signal]) : progress?.abort ?? signal
    onAttemptProgress?.(progress)
    const attempt = await withLockfileRewrite(planned.lockfileRewrite, plan.invocation.adapter.lockfile?.format, () =>
      runChild(command, { env: { ...env, ...command.env, RESILIENT_ACTIVE: '1' }, cwd: planned.cwd, interrupts, pty: usePty, ...childStreams.options, ...(stdout && { stdout }), abort, onSpawn: progress?.onSpawn }))
      .finally(() => onAttemptProgress?.(undefined))
    childStreams.flush()
    reporter.mask?.(registerSecrets(findSecrets(attempt.output)))
    return { ...attempt, progress: progress?.stop() }
  }
}
