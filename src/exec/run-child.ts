import { spawn } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { isatty } from 'node:tty'
import type { CommandLine } from '../tools/types.js'
import { writeAttemptFiles } from './attempt-files.js'
import { forwardSignals } from './child-signals.js'
import { prepareStdio } from './output/child-stdio.js'
import type { ForwardEnd } from './output/forward-output.js'
import type { InterruptSignal, Interrupts } from './interrupts.js'
import { launchContext } from './launch-context.js'
import type { ProgressSummary } from './progress/progress-monitor.js'
import { Leftovers } from './leftovers.js'
import type { ReplayableInput } from './input/replayable-input.js'
import { exitCodeForSignal, signalNumber, withIgnoredSignals } from './signals.js'
import { resolveProgram, spawnFailure } from './program.js'
import { TailBuffer } from '../diagnose/tail-buffer.js'
import { startWatchdog } from './watchdog.js'

export interface ChildResult {
  exitCode: number
  /** Tail of stdout+stderr as the child wrote them, for diagnosis ('' when the output was not captured). */
  output: string
  /** Tail of stderr alone, when it was a stream of its own (not a terminal, not one file with stdout). */
  errorOutput?: string
  durationMs: number
  /** The first signal resilient received that ends a process: nothing is retried after that. */
  interrupted?: InterruptSignal
  /** Set when resilient itself stopped the child (a stall): the reason, for the diagnosis. */
  abortedBecause?: string
  /** The executable could not be started at all (exit 126 or 127, as a shell gives). */
  spawnError?: string
  /** What the child tree received, where it can be measured (set by the caller's progress monitor). */
  progress?: ProgressSummary
  /** The child died of this signal. */
  signal?: NodeJS.Signals
  /** The reader of resilient's output went away (`| head`): the tool ended as it would have, nothing is retried. */
  brokenPipe?: boolean
  /** Why another run could not be given the same input, when it could not (a retry is then refused). */
  cannotRepeat?: string
  /** The tool had started the program it fetched (npx, `pnpm dlx`): the status is that program's, never retried. */
  programRan?: boolean
  /** What each source behind resilient's relay answered during this attempt, by source id (src/run/relay.ts). */
  relayed?: Record<string, { served: number; failures: Partial<Record<string, number>> }>
}

export interface RunChildOptions {
  /** The complete environment of the child (process env plus the attempt's additions). */
  env: NodeJS.ProcessEnv
  /** Where the child runs (the attempt's directory); ours when absent. */
  cwd?: string
  interrupts: Interrupts
  /** Give the child a pseudo-terminal (when stdin, stdout and stderr are all terminals) so it keeps its colours. */
  pty: boolean
  /** Read the child's output (for diagnosis); otherwise it writes straight to `output`. Default true. */
  capture?: boolean
  /** resilient's descriptors the child's stdout and stderr go to; default 1 and 2. */
  output?: { stdout: number; stderr: number }
  /** The child's stdin: resilient's own (default), none, or a copy kept for a second run. */
  input?: ReplayableInput | 'inherit' | 'ignore'
  tailBytes?: number
  /** Aborting stops the child tree gracefully, then forcefully; the reason is reported. */
  abort?: AbortSignal
  /** Called once the child runs, with its pid: a progress monitor attaches here. */
  onSpawn?: (pid: number) => void
  /**
   * Told of each chunk of the tool's output just before it is written on (a waiting spinner clears itself first). Given,
   * the event loop copies every byte: no relay thread copies a large output (src/exec/output/forward-output.ts).
   */
  onOutput?: (chunk: Buffer) => void
  /** Grace period between SIGTERM and SIGKILL when resilient stops the child (a stall). */
  killGraceMs?: number
}

export function exitCodeOf(code: number | null | undefined, signal: string | null | undefined): number {
  if (typeof code === 'number') return code
  return signal && signalNumber(signal as NodeJS.Signals) ? exitCodeForSignal(signal as NodeJS.Signals) : 1
}

/** Runs one attempt as the plain tool would run (docs/process.md), keeping a bounded tail of its output. Never throws. */
export async function runChild(command: CommandLine, options: RunChildOptions): Promise<ChildResult> {
  const written = writeAttemptFiles(command)
  try {
    return await runProgram(command, options)
  } finally {
    for (const path of written) rmSync(path, { force: true })
  }
}

async function runProgram(command: CommandLine, options: RunChildOptions): Promise<ChildResult> {
  const started = Date.now()
  const result = (fields: Omit<ChildResult, 'durationMs' | 'output'> & { output?: string }): ChildResult =>
    ({ output: '', ...fields, durationMs: Date.now() - started, cannotRepeat: typeof options.input === 'object' ? options.input.refusal() : undefined })
  const [name, ...args] = command.argv
  const program = resolveProgram(name!, options.env, options.cwd)
  if ('exitCode' in program) return result({ exitCode: program.exitCode, spawnError: program.message })
  const { ignoredSignals, inheritedFds } = launchContext()
  const input = options.input ?? 'inherit'
  const sharesGroup = input !== 'ignore' && isatty(0)
  const tailBytes = options.tailBytes ?? 256 * 1024
  const stdio = await prepareStdio({ capture: options.capture ?? true, pty: options.pty, output: options.output ?? { stdout: 1, stderr: 2 }, input, inheritedFds, terminalSize,
    relayLargeOutput: !options.onOutput, tailBytes, env: options.env })
  const launch = withIgnoredSignals(program.path, args, ignoredSignals, options.env ?? process.env)
  let child: ReturnType<typeof spawn>
  // A Ctrl-C received while the attempt was prepared reached no tool: none starts (no await from here to forwardSignals).
  const early = options.interrupts.received
  if (early) return stdio.started(() => {}).then(() => (stdio.detachInput(), result({ exitCode: exitCodeOf(null, early), interrupted: early, signal: early })))
  const watchdog = startWatchdog()
  try {
    child = spawn(launch.file, launch.args, { env: options.env, cwd: runsIn(options.cwd), stdio: stdio.stdio, detached: !sharesGroup, argv0: launch.file === program.path ? name : undefined, windowsHide: true })
  } catch (error) {
    watchdog.cancel()
    await stdio.started(() => {})
    stdio.detachInput()
    return result(spawnFailure(program.path, error as NodeJS.ErrnoException))
  }
  const tail = new TailBuffer(tailBytes)
  const errorTail = new TailBuffer(tailBytes)
  const forwarded = stdio.started((chunk, fromStderr) => {
    options.onOutput?.(chunk)
    tail.push(chunk)
    if (fromStderr) errorTail.push(chunk)
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: NodeJS.ErrnoException }>(resolve => {
    child.once('error', error => resolve({ code: null, signal: null, error }))
    child.once('exit', (code, signal) => resolve({ code, signal }))
  })
  const pid = child.pid
  if (!pid) {
    watchdog.cancel()
    const { error } = await exited
    await forwarded
    stdio.detachInput()
    return result({ ...spawnFailure(program.path, error), output: tail.toString() })
  }
  // First: from this line on, the watchdog stops the tool should resilient be killed.
  const releaseWatchdog = watchdog.watch(sharesGroup ? pid : -pid)
  const signals = forwardSignals(options.interrupts, { pid, sharesGroup, onResize: stdio.pty && (() => stdio.pty!.resize(terminalSize().columns, terminalSize().rows)) })
  const stopReopens = typeof input === 'object' ? input.watch(pid) : () => {}
  let abortedBecause: string | undefined
  let toolExited = false
  const leftovers = new Leftovers(pid, sharesGroup, options.interrupts, stdio.outputFiles)
  const onAbort = () => {
    abortedBecause = String(options.abort?.reason ?? 'aborted')
    leftovers.stopTree('SIGTERM')
    setTimeout(() => !toolExited && leftovers.stopTree('SIGKILL'), options.killGraceMs ?? 1000).unref()
  }
  options.abort?.addEventListener('abort', onAbort, { once: true })
  options.onSpawn?.(pid)
  const exitStatus = await exited
  toolExited = true
  stdio.detachInput()
  stopReopens()
  releaseWatchdog()
  leftovers.toolExited(Boolean(signals.received()), exitStatus.signal)
  // All output, including what a helper the tool left running still writes, is passed on before the exit is
  // reported: the run ends when every writer has closed the pipes, as a shell pipeline does. Where the output goes to
  // a terminal or a file, a helper still holding it a moment after the tool's exit does not keep resilient: what it
  // writes later goes on through a process of its own (src/exec/output/hand-off.ts).
  const ends = await untilOutputEnds(forwarded, stdio.handOffOutput)
  leftovers.release()
  signals.stop()
  options.abort?.removeEventListener('abort', onAbort)
  return result({
    exitCode: exitCodeOf(exitStatus.code, exitStatus.signal),
    output: tail.toString(),
    errorOutput: stdio.separateStderr ? errorTail.toString() : undefined,
    interrupted: signals.received() ?? options.interrupts.received,
    abortedBecause,
    signal: exitStatus.signal ?? undefined,
    brokenPipe: ends.includes('broken-pipe') || undefined,
  })
}

/**
 * How long after the tool's exit its output may take to end on its own. The end of file comes at once when no other
 * process holds the pipe: this only gives the last bytes time to be written on before a hand-off is considered.
 */
const HELPER_GRACE_MS = 100

async function untilOutputEnds(forwarded: Promise<ForwardEnd[]>, handOff: () => void): Promise<ForwardEnd[]> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const graceOver = new Promise<undefined>(resolve => { timer = setTimeout(() => resolve(undefined), HELPER_GRACE_MS) })
  const ended = await Promise.race([forwarded, graceOver])
  clearTimeout(timer)
  if (ended) return ended
  handOff()
  return forwarded
}

/**
 * The directory to start the child in. One that no longer exists is the working directory deleted under the shell
 * (src/cli/main.ts stands in its former path): the child starts where resilient is, as the shell would start it.
 */
function runsIn(cwd: string | undefined): string | undefined {
  return cwd && existsSync(cwd) ? cwd : undefined
}

function terminalSize(): { columns: number; rows: number } {
  return { columns: process.stdout.columns || process.stderr.columns || 80, rows: process.stdout.rows || process.stderr.rows || 24 }
}
