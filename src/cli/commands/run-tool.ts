import { writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { isCI } from 'ci-info'
import { loadConfig } from '../../config/load.js'
import { offlineFailureHint, offlinePlan, planOffline } from '../../config/offline.js'
import { announceProjectHosts } from '../../config/project-hosts.js'
import { ResilientError, EXIT } from '../../errors.js'
import { Interrupts, type InterruptSignal } from '../../exec/interrupts.js'
import { runChild } from '../../exec/run-child.js'
import { watchProgress } from '../../exec/progress-monitor.js'
import { findSecrets, knownSecrets, redact, redactDeep, registerSecretEnv, registerSecrets } from '../../redact.js'
import { recordRun } from '../../logs/record-run.js'
import { formatCommand } from '../../retry/format.js'
import { createProbe } from '../../retry/probe.js'
import { proxiesFromEnvironment } from '../../diagnose/proxies.js'
import { buildCommand, runWithRetries, type RetryInput } from '../../retry/retry.js'
import { labelOf, planSources } from '../../retry/sources.js'
import type { RunResult } from '../../retry/types.js'
import { TOOLS, type ToolName } from '../../tools/index.js'
import { parseInvocation } from '../../tools/parse-invocation.js'
import { RunMemory } from '../../state/run-memory.js'
import { restoreLockfile } from '../restore-lockfile.js'
import { configFlags, type GlobalOptions } from '../options.js'
import { createAsker } from '../ask.js'
import { TerminalReporter } from '../reporter.js'
import { chooseReporter, type RunReporter } from '../ci-reporter.js'
import { redactedChildStreams } from '../redacting-stream.js'

/** Listens for the user's interrupts for as long as the run lasts; the child is stopped by runChild. */
export function listenForInterrupts(interrupts: Interrupts): () => void {
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
      throughput: attempt.progress ?? null,
    })),
    hint: result.hint ?? null,
  })
}

/** What a command inside resilient (`resilient run` installing a missing module) shares with the tool run it starts. */
export interface ToolSession {
  reporter?: RunReporter
  /** The caller already listens for interrupts: the tool run uses its Interrupts and adds no listener. */
  interrupts?: Interrupts
  /** Sees the finished run, for the caller's own report. */
  onResult?: (tool: string, result: RunResult) => void
  /** Where the tool's output goes instead of stdout: `resilient run` keeps stdout for the script's own output. */
  stdout?: NodeJS.WritableStream
}

/** `resilient [options] <tool> [args...]`: the main job. Returns the exit code. */
export async function runTool(argv: string[], options: GlobalOptions, session: ToolSession = {}): Promise<number> {
  const env = process.env
  registerSecretEnv(env)
  registerSecrets(argv.flatMap(arg => [...arg.matchAll(/:\/\/[^/@\s]*:([^/@\s]+)@/g)].map(m => m[1])))
  const loaded = await loadConfig({ cwd: process.cwd(), env, flags: configFlags(options) })
  const { config } = loaded
  const parsed = parseInvocation(argv, env, { allowMissing: options.dryRun })
  // A dry run plans for a tool that is not installed here, in its default variant; a real run stopped above (127).
  const variant = parsed.adapter.resolveVariant && !parsed.missing ? await parsed.adapter.resolveVariant(parsed.executable, env) : undefined
  // The variant's own name (yarn-berry, mamba 2) is what diagnosis rules and reports key on.
  const resolved = variant ? { ...parsed, adapter: variant, tool: (variant.name in TOOLS ? variant.name : parsed.tool) as ToolName } : parsed
  const networked = resolved.adapter.classify(resolved.args) === 'network'
  const offline = config.offline && networked ? planOffline(resolved.adapter.ecosystem, loaded, process.cwd(), env) : undefined
  // GOPROXY=off and the like: only the child reads them.
  if (offline) Object.assign(env, offline.env)
  const invocation = offline ? { ...resolved, args: [...resolved.args, ...offline.args] } : resolved
  registerSecrets(findSecrets(JSON.stringify(config)))
  const reporter = session.reporter ?? chooseReporter(env, new TerminalReporter({ stream: process.stderr, quiet: Boolean(options.quiet), verbose: Boolean(options.verbose || options.debug), interactive: Boolean(process.stderr.isTTY) && !isCI }), process.stderr)
  if (parsed.missing) reporter.warn(`${parsed.launcher[0]} is not on PATH here; the plan is shown for its default version.`)
  reporter.mask?.(knownSecrets())
  const context = { args: invocation.args, env, cwd: process.cwd(), home: env.HOME || homedir(), executable: invocation.executable }
  const userIndex = invocation.adapter.findUserIndex(context)
  const knobs = invocation.adapter.findUserKnobs?.(context) ?? { userSet: false }
  const planned = planSources({ adapter: invocation.adapter, config, userIndex, context, preferredMirrors: options.mirror, warn: message => reporter.warn(message) })
  // Mirror health and learned order (src/state): open breakers skipped without contact, what fixed this before first.
  const memory = networked ? await RunMemory.open({ env, breaker: config.breaker, tool: invocation.adapter.name, note: m => reporter.note(m), verbose: m => reporter.verbose(m), warn: m => reporter.warn(m) }) : undefined
  if (memory) await announceProjectHosts(loaded, invocation.adapter.ecosystem, invocation.adapter.name, key => memory.firstTime(key), m => reporter.warn(m))
  const plan = offline ? offlinePlan(offline) : memory ? memory.arrange(planned, options.mirror) : planned
  if (knobs.userSet) reporter.verbose(`keeping your own timeout/retries (${knobs.origin})`)
  if (userIndex) reporter.verbose(`index chosen by you: ${userIndex.url} (${userIndex.origin})`)
  if (plan.noSwitchReason) reporter.verbose(`no mirror will be used: ${plan.noSwitchReason}`)
  // A lockfile pinning registry URLs limits what a mirror can do (yarn 1, npm): say so instead of failing silently.
  const lockedSources = invocation.adapter.classify(invocation.args) === 'network' ? invocation.adapter.describeLockedSources?.(context) : undefined
  if (lockedSources) (options.dryRun ? reporter.warn(lockedSources) : reporter.verbose(lockedSources))
  // Offline there is no index to detect as dead: the tool's own timeouts are left alone.
  const input: RetryInput = { invocation, plan, config, userKnobs: knobs.userSet || Boolean(offline), proxies: proxiesFromEnvironment(env) }

  if (options.dryRun) {
    const sources = [plan.primary, ...plan.fallbacks].slice(0, invocation.adapter.classify(invocation.args) === 'network' ? config.maxAttempts : 1)
    for (const source of sources) process.stdout.write(`${formatCommand(buildCommand(input, source, false))}\n`)
    return 0
  }

  const interrupts = session.interrupts ?? new Interrupts()
  const stopListening = session.interrupts ? () => {} : listenForInterrupts(interrupts)
  // Read before the first attempt: what a mirror attempt adds to the lockfile is told apart from what was there.
  const lockfile = networked && !offline ? invocation.adapter.guardLockfile?.(process.cwd()) : undefined
  const usePty = options.pty !== false && Boolean(process.stdout.isTTY && process.stderr.isTTY) && !isCI
  try {
    const startedAt = new Date()
    const childStreams = redactedChildStreams(usePty)
    const result = await runWithRetries(input, {
      exec: async (command, { source }) => {
        // Only network attempts are watched for stalls: `pip list` has nothing to download.
        const progress = networked ? watchProgress({ stall: config.stall, host: labelOf(source.indexUrl ?? source.url ?? source.label), report: line => reporter instanceof TerminalReporter ? reporter.throughput(line) : reporter.verbose(line) }) : undefined
        const attempt = await runChild(command, { env: { ...env, ...command.env, RESILIENT_ACTIVE: '1' }, interrupts, pty: usePty, ...childStreams.options, ...(session.stdout && { stdout: session.stdout }), abort: progress?.abort, onSpawn: progress?.onSpawn })
        childStreams.flush()
        reporter.mask?.(registerSecrets(findSecrets(attempt.output)))
        return { ...attempt, progress: progress?.stop() }
      },
      sleep: interruptibleSleep(interrupts),
      now: Date.now,
      reporter,
      probe: createProbe(invocation.adapter, env),
      interrupted: () => interrupts.received,
      // Questions only when a person can answer; --yes takes the safe default, which is to stop.
      ask: process.stdin.isTTY && process.stderr.isTTY && !isCI && options.input !== false && !options.yes
        ? createAsker(invocation, line => process.stderr.write(`${redact(line)}\n`)) : undefined,
      onAttempt: memory && (record => memory.onAttempt(record, plan)),
    })
    await memory?.finish(result)
    if (offline && (result.outcome === 'gave-up' || result.outcome === 'failed')) reporter.warn(offlineFailureHint(offline, result))
    if (lockedSources && result.outcome === 'gave-up') reporter.warn(lockedSources)
    if (lockfile) await restoreLockfile(lockfile, { result, plan, defaultIndex: invocation.adapter.defaultIndex, cwd: process.cwd(), note: m => reporter.note(m), warn: m => reporter.warn(m) })
    const log = recordRun({ report: toReport(invocation.tool, result), invocation: argv, startedAt, cwd: process.cwd(), env, keep: config.logs.keep })
    if (log.error) reporter.warn(log.error)
    if (options.report) {
      try {
        writeFileSync(options.report, `${JSON.stringify(toReport(invocation.tool, result), null, 2)}\n`)
      } catch (error) {
        reporter.warn(`could not write the report to ${options.report}: ${(error as Error).message}`)
      }
    }
    session.onResult?.(invocation.tool, result)
    return result.exitCode
  } finally {
    stopListening()
  }
}

export { EXIT, ResilientError }
