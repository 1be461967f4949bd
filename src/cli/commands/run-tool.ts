import { writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { isCI } from 'ci-info'
import { loadConfig } from '../../config/load.js'
import { ResilientError, EXIT } from '../../errors.js'
import { Interrupts, type InterruptSignal } from '../../exec/interrupts.js'
import { runChild } from '../../exec/run-child.js'
import { redactDeep, registerSecretEnv, registerSecrets } from '../../redact.js'
import { formatCommand } from '../../retry/format.js'
import { createProbe } from '../../retry/probe.js'
import { buildCommand, runWithRetries, type RetryInput } from '../../retry/retry.js'
import { planSources } from '../../retry/sources.js'
import type { RunResult } from '../../retry/types.js'
import { parseInvocation } from '../../tools/parse-invocation.js'
import type { GlobalOptions } from '../options.js'
import { TerminalReporter } from '../reporter.js'

/** Listens for the user's interrupts for as long as the run lasts; the child is stopped by runChild. */
function listenForInterrupts(interrupts: Interrupts): () => void {
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as InterruptSignal[]).map(signal => {
    const handler = () => interrupts.raise(signal)
    process.on(signal, handler)
    return () => process.off(signal, handler)
  })
  return () => handlers.forEach(off => off())
}

function interruptibleSleep(interrupts: Interrupts) {
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

export function toReport(tool: string, result: RunResult) {
  return redactDeep({
    tool,
    exitCode: result.exitCode,
    durationMs: result.durationMs,
    outcome: result.outcome,
    attempts: result.attempts.map(attempt => ({
      command: [...Object.entries(attempt.command.env).map(([k, v]) => `${k}=${v}`), ...attempt.command.argv],
      source: attempt.source.label,
      exitCode: attempt.exitCode,
      durationMs: attempt.durationMs,
      diagnosis: attempt.diagnosis && { category: attempt.diagnosis.category, summary: attempt.diagnosis.summary, evidence: attempt.diagnosis.evidence, rule: attempt.diagnosis.ruleId },
    })),
    hint: result.hint ?? null,
  })
}

/** `resilient [options] <tool> [args...]`: the main job. Returns the exit code. */
export async function runTool(argv: string[], options: GlobalOptions): Promise<number> {
  const env = process.env
  registerSecretEnv(env)
  registerSecrets(argv.flatMap(arg => [...arg.matchAll(/:\/\/[^/@\s]*:([^/@\s]+)@/g)].map(m => m[1])))
  const { config } = await loadConfig({ cwd: process.cwd(), env, flags: { maxAttempts: options.maxAttempts, mirrors: options.mirrors === false ? false : undefined } })
  const invocation = parseInvocation(argv, env)
  const reporter = new TerminalReporter({ stream: process.stderr, quiet: Boolean(options.quiet), verbose: Boolean(options.verbose || options.debug), interactive: Boolean(process.stderr.isTTY) && !isCI })
  const context = { args: invocation.args, env, cwd: process.cwd(), home: env.HOME || homedir() }
  const userIndex = invocation.adapter.findUserIndex(context)
  const knobs = invocation.adapter.findUserKnobs?.(context) ?? { userSet: false }
  const plan = planSources({ adapter: invocation.adapter, config, userIndex, preferredMirrors: options.mirror, warn: message => reporter.warn(message) })
  if (knobs.userSet) reporter.verbose(`keeping your own timeout/retries (${knobs.origin})`)
  if (userIndex) reporter.verbose(`index chosen by you: ${userIndex.url} (${userIndex.origin})`)
  if (plan.noSwitchReason) reporter.verbose(`no mirror will be used: ${plan.noSwitchReason}`)
  const input: RetryInput = { invocation, plan, config, userKnobs: knobs.userSet }

  if (options.dryRun) {
    const sources = [plan.primary, ...plan.fallbacks].slice(0, invocation.adapter.classify(invocation.args) === 'network' ? config.maxAttempts : 1)
    for (const source of sources) process.stdout.write(`${formatCommand(buildCommand(input, source, false))}\n`)
    return 0
  }

  const interrupts = new Interrupts()
  const stopListening = listenForInterrupts(interrupts)
  const usePty = options.pty !== false && Boolean(process.stdout.isTTY && process.stderr.isTTY) && !isCI
  try {
    const result = await runWithRetries(input, {
      exec: command => runChild(command, { env: { ...env, ...command.env, RESILIENT_ACTIVE: '1' }, interrupts, pty: usePty }),
      sleep: interruptibleSleep(interrupts),
      now: Date.now,
      reporter,
      probe: createProbe(invocation.adapter, env),
      interrupted: () => interrupts.received,
    })
    if (options.report) {
      try {
        writeFileSync(options.report, `${JSON.stringify(toReport(invocation.tool, result), null, 2)}\n`)
      } catch (error) {
        reporter.warn(`could not write the report to ${options.report}: ${(error as Error).message}`)
      }
    }
    return result.exitCode
  } finally {
    stopListening()
  }
}

export { EXIT, ResilientError }
