import { writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { isCI } from 'ci-info'
import { loadConfig } from '../config/load.js'
import { offlineFailureHint, planOffline } from '../plan/offline.js'
import { proxiesFromEnvironment } from '../proxies.js'
import { prepareFifos } from '../exec/output/fifos.js'
import { Interrupts } from '../exec/interrupts.js'
import type { ProgressWatch } from '../exec/progress/progress-monitor.js'
import { ReplayableInput } from '../exec/input/replayable-input.js'
import { recordRun } from '../logs/record-run.js'
import { gatherPlanRequest } from '../plan/gather.js'
import { planRun } from '../plan/plan-run.js'
import { rankSources } from '../plan/rank.js'
import type { RunResult } from '../plan/types.js'
import { findSecrets, knownSecrets, redact, registerSecretEnv, registerSecrets } from '../redact.js'
import { runAttempts } from '../retry/attempts-loop.js'
import { createAliveCheck, createHedgeWatch } from '../retry/hedge-watch.js'
import { createProbe } from '../retry/probe.js'
import { IndexAnswers } from '../retry/index-answers.js'
import { RunMemory } from '../state/run-memory.js'
import { TOOLS, type ToolName } from '../tools/index.js'
import { recoverLockfile } from '../tools/lockfile/lockfile-journal.js'
import { guardLockfile } from '../tools/lockfile/lockfile-registry.js'
import { parseInvocation } from '../tools/parse-invocation.js'
import { planRelay, startRelayForRun } from './relay.js'
import { describeMirrorPages } from '../relay/describe.js'
import { resolveVariantCached } from '../state/variant-cache.js'
import type { RunReporter } from './reporter.js'
import { announcePlan } from './announce-plan.js'
import { sourceConfirmation } from './confirm-source.js'
import { configFlags, type RunFlags } from './flags.js'
import { printPlan } from './print-plan.js'
import { restoreLockfile } from './restore-lockfile.js'
import { inForeground } from './signal-router.js'
import { childExec, interruptibleSleep, listenForInterrupts } from './child-exec.js'
import { toReport } from './report.js'
import { privateDirForRun, whileToolRuns } from './housekeeping.js'

/** How a tool run is started: everything it reads from outside is passed in. */
export interface ToolRunOptions {
  /** What the run says while it goes (a terminal or CI reporter for the CLI). */
  reporter: RunReporter
  /** The tool's environment, whole (process.env when absent); the run never writes it. */
  env?: NodeJS.ProcessEnv
  /** Where the tool runs; the current directory when absent. */
  cwd?: string
  /** resilient's own options (--dry-run, --mirror, --report...). */
  flags?: RunFlags
  /**
   * `stdout`: resilient's descriptor the tool's stdout goes to instead of 1 (`resilient run` keeps stdout for the
   * script); `noInput`: the tool gets no stdin (`resilient run`'s installs must not read the script's input).
   */
  stdio?: { stdout?: number; noInput?: boolean }
  /** The caller already listens for interrupts: the run uses its Interrupts and routes no signal itself. */
  interrupts?: Interrupts
}

/** A finished tool run: how the tool ended (its exit code, or the signal it died of), every attempt, the report. */
export interface ToolRun {
  tool: string
  exitCode: number
  signal?: NodeJS.Signals
  /** Undefined for a dry run, which runs nothing. */
  result?: RunResult
  /** What --report writes: every attempt, where it went, what it contacted. */
  report?: ReturnType<typeof toReport>
}

/**
 * A tool run, `resilient pip install x` as a library call: gathers the environment, directory, config and state,
 * plans the run (planRun), orders it (rankSources), executes it (runAttempts), and keeps its log and report.
 */
export async function runTool(argv: string[], { reporter, env = process.env, cwd = process.cwd(), flags: options = {}, stdio = {}, interrupts: given }: ToolRunOptions): Promise<ToolRun> {
  registerSecretEnv(env)
  registerSecrets(argv.flatMap(arg => [...arg.matchAll(/:\/\/[^/@\s]*:([^/@\s]+)@/g)].map(m => m[1])))
  const parsed = parseInvocation(argv, env, { allowMissing: options.dryRun })
  // The run's private directory for attempt files (pixi's mirror config, credentials): removed on every exit path,
  // swept by the next run after a SIGKILL.
  const scratch = privateDirForRun()
  const idle = whileToolRuns()
  // A dry run plans for a tool that is not installed here, in its default variant; a real run stopped above (127).
  const variant = parsed.adapter.resolveVariant && !parsed.missing
    ? await resolveVariantCached(parsed.adapter, parsed.executable, { args: parsed.args, env, cwd, home: env.HOME || homedir() }, scratch) : undefined
  // The variant's own name (yarn-berry, mamba 2) is what diagnosis rules and reports key on.
  const invocation = variant ? { ...parsed, adapter: variant, tool: (variant.name in TOOLS ? variant.name : parsed.tool) as ToolName } : parsed
  const networked = invocation.adapter.classify(invocation.args) === 'network'
  // In a terminal the tool's output goes through a pseudo-terminal (docs/process.md); elsewhere through pipes, made
  // while the config and state are read.
  const usePty = options.pty !== false && Boolean(process.stdout.isTTY && process.stderr.isTTY) && !isCI
  if (networked && !options.dryRun && !usePty) void prepareFifos(2)
  // A read-only verb (`pip --version` through a shim in a cloned repository) loads no project config at all.
  const loaded = await loadConfig({ cwd, env, flags: configFlags(options), project: networked })
  const { config } = loaded
  const offline = config.offline && networked ? planOffline(invocation.adapter, loaded, cwd, env) : undefined
  registerSecrets(findSecrets(JSON.stringify(config)))
  // A lockfile a killed run left rewritten for a mirror attempt goes back first: the plan reads it (yarn 1).
  const recovered = invocation.adapter.lockfile && !options.dryRun ? await recoverLockfile(invocation.adapter.lockfile.format, cwd) : undefined
  if (recovered) reporter.warn(recovered)
  for (const notice of loaded.notices) reporter.warn(notice)
  if (options.debug) for (const note of loaded.debugNotes) reporter.verbose(note)
  if (parsed.missing) reporter.warn(`${parsed.launcher[0]} is not on PATH here; the plan is shown for its default version.`)
  reporter.mask?.(knownSecrets())

  // Credentials reach the tool through its environment or a 0600 file in the private directory, never its argv.
  const secrets = { scratch, env }
  const toolContext = { env, cwd, home: env.HOME || homedir() }
  const request = gatherPlanRequest(invocation, toolContext, { config, preferredMirrors: options.mirror, offline, proxies: proxiesFromEnvironment(env), secrets })
  const planned = planRun(request)
  planned.warnings.forEach(message => reporter.warn(message))
  // Mirror health and learned order (src/state): failing sources last, what fixed this before first among mirrors.
  const memory = networked && !offline ? await RunMemory.open({ env, breaker: config.breaker, tool: invocation.adapter.name, verbose: m => reporter.verbose(m), warn: m => reporter.warn(m) }) : undefined
  const ranking = memory ? rankSources(planned, memory.snapshot()) : { plan: planned }
  // The first attempt goes through resilient's relay when it can (docs/relay.md).
  const plan = planRelay(ranking.plan, { enabled: config.relay, context: { ...toolContext, executable: invocation.executable }, secrets })
  announcePlan({ plan, request, ranking, reporter, dryRun: Boolean(options.dryRun) })
  if (options.dryRun) {
    printPlan(plan, process.stdout, process.stderr, Boolean(options.quiet))
    idle.ended()
    return { tool: invocation.tool, exitCode: 0 }
  }

  const interrupts = given ?? new Interrupts()
  const stopListening = given ? () => {} : listenForInterrupts(interrupts)
  // Read before the first attempt: what a mirror attempt adds to the lockfile is told apart from what was there.
  const lockfile = networked && !offline && invocation.adapter.lockfile ? guardLockfile(invocation.adapter.lockfile.format, cwd) : undefined
  // A retry must read what the first attempt read (docs/process.md): kept only for runs that may be retried.
  const input = stdio.noInput ? 'ignore' : networked ? new ReplayableInput({ argv: invocation.args, limitBytes: Math.round(config.replayInputMegabytes * 1_000_000), vet: invocation.adapter.vetStreamedInput }) : 'inherit'
  const relay = await startRelayForRun(plan, { env, secrets, say: (line, important) => important ? reporter.note(line, { overToolLine: true }) : reporter.verbose(line), book: memory && (bookings => memory.bookEach(bookings)),
    ...(config.lookAhead && { lookAhead: () => invocation.adapter.relay?.lookAhead?.({ ...toolContext, executable: invocation.executable, args: plan.invocation.args }) }),
    keepCache: relayed => invocation.adapter.relay?.keepCache?.({ ...toolContext, executable: invocation.executable, args: plan.invocation.args }, relayed) ?? Promise.resolve() })
  try {
    const startedAt = new Date()
    let progress: ProgressWatch | undefined
    const running = relay?.plan ?? plan
    const exec = childExec({ plan: running, config, env, interrupts, reporter, usePty, stdoutFd: stdio.stdout, input, onAttemptProgress: watch => { progress = watch },
      // The relay's code loads once the tool runs, while it starts up: its socket holds the requests meanwhile.
      onSpawn: () => { relay?.toolStarted(); idle.started() }, relayed: relay?.served })
    // A dead public index is left after ~2 s of silence while another source answers (src/retry/hedge.ts).
    const watch = config.fastDetect ? createHedgeWatch(running, { env, activity: () => progress?.activity() ?? {} }) : undefined
    const answers = new IndexAnswers()
    const result = await runAttempts(running, {
      ...relay?.around(exec, watch) ?? { exec, watch },
      sleep: interruptibleSleep(interrupts),
      now: Date.now,
      reporter,
      probe: createProbe(invocation.adapter, env, undefined, answers),
      confirmSource: sourceConfirmation({ request, config, tool: { ...toolContext, args: invocation.args, executable: invocation.executable }, state: memory?.snapshot(), reporter }),
      alive: createAliveCheck(running, env, undefined, undefined, answers),
      book: memory && ((outcome, hosts) => void memory.book(outcome, hosts)),
      interrupted: () => interrupts.received,
      // Questions only when a person can answer; --yes takes the safe default, which is to stop.
      ask: process.stdin.isTTY && process.stderr.isTTY && !isCI && options.input !== false && !options.yes && inForeground()
        // Loaded when a question arises: most runs never ask one.
        ? async question => (await import('./ask.js')).createAsker(invocation, line => process.stderr.write(`${redact(line)}\n`), secrets)(question) : undefined,
    })
    // Logs are for runs that can fail over: one per `pip --version` or `npm run build` would only rotate them out.
    // Written while mirror health is (the two files are independent).
    const relayed = await relay?.tally()
    const lookedAhead = relay?.lookedAhead?.()
    if (lookedAhead?.fetched) reporter.verbose(`resilient's relay fetched ${lookedAhead.fetched} packument(s) ahead of ${invocation.tool}; it took ${lookedAhead.used} of them`)
    const mirrorPages = relay?.mirrorPages?.()
    if (mirrorPages) reporter.warn(describeMirrorPages(mirrorPages))
    const report = toReport(invocation.tool, result, relayed && { sources: relayed, lookedAhead, mirrorPages })
    const logging = networked ? recordRun({ report, invocation: argv, startedAt, cwd, env, keep: config.logs.keep }) : undefined
    await memory?.finish()
    if (offline && (result.outcome === 'gave-up' || result.outcome === 'failed')) reporter.warn(offlineFailureHint(offline, result))
    if (plan.lockedSources && result.outcome === 'gave-up') reporter.warn(plan.lockedSources)
    if (lockfile) await restoreLockfile(lockfile, { result, plan, cwd, note: m => reporter.note(m), warn: m => reporter.warn(m) })
    const log = (await logging) ?? {}
    if (log.error) reporter.warn(log.error)
    if (options.report) {
      try {
        writeFileSync(options.report, `${JSON.stringify(report, null, 2)}\n`, { mode: 0o600 })
      } catch (error) {
        reporter.warn(`could not write the report to ${options.report}: ${(error as Error).message}`)
      }
    }
    return { tool: invocation.tool, exitCode: result.exitCode, signal: result.signal, result, report }
  } finally {
    await relay?.close()
    idle.ended()
    if (typeof input === 'object') input.close()
    stopListening()
    scratch.remove()
  }
}
