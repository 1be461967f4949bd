import { spawn, type ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import { constants } from 'node:os'
import { writeNewFile } from '../files/private-files.js'
import type { CommandLine } from '../tools/types.js'
import type { InterruptSignal, Interrupts } from './interrupts.js'
import type { ProgressSummary } from './progress-monitor.js'
import { listDescendants, signalTree } from './process-tree.js'
import { runInPty, loadPty } from './pty.js'
import { TailBuffer } from './tail-buffer.js'

export interface ChildResult {
  exitCode: number
  /** Tail of stdout+stderr as the child wrote them, for diagnosis. */
  output: string
  durationMs: number
  /** Set when the user interrupted: nothing is retried after that. */
  interrupted?: InterruptSignal
  /** Set when resilient itself stopped the child (a stall): the reason, for the diagnosis. */
  abortedBecause?: string
  /** The executable could not be started at all. */
  spawnError?: string
  /** What the child tree received, where it can be measured (set by the caller's progress monitor). */
  progress?: ProgressSummary
}

export interface RunChildOptions {
  /** The complete environment of the child (process env plus the attempt's additions). */
  env: NodeJS.ProcessEnv
  /** Where the child runs (the attempt's directory); ours when absent. */
  cwd?: string
  interrupts: Interrupts
  /** Give the child a pseudo-terminal so it keeps progress bars and colours. */
  pty: boolean
  tailBytes?: number
  /** Aborting stops the child tree gracefully, then forcefully; the reason is reported. */
  abort?: AbortSignal
  /** Called once the child runs, with its pid: a progress monitor attaches here. */
  onSpawn?: (pid: number) => void
  stdout?: NodeJS.WritableStream
  stderr?: NodeJS.WritableStream
  /** Grace period between SIGTERM and SIGKILL when resilient stops the child (a stall): short, since the attempt is
   * abandoned anyway and npm ignores SIGTERM while it fetches. */
  killGraceMs?: number
}

export function exitCodeOf(code: number | null | undefined, signal: string | null | undefined): number {
  if (typeof code === 'number') return code
  const number = signal ? constants.signals[signal as NodeJS.Signals] : undefined
  return number ? 128 + number : 1
}

/** Runs one attempt, streaming the child's output through untouched and keeping a bounded tail. Never throws. */
export async function runChild(command: CommandLine, options: RunChildOptions): Promise<ChildResult> {
  const written = writeAttemptFiles(command)
  try {
    if (options.pty) {
      const pty = await loadPty()
      if (pty) return await runInPty(pty, command, options)
    }
    return await runWithPipes(command, options)
  } finally {
    for (const path of written) rmSync(path, { force: true })
  }
}

/**
 * Files an adapter needs for one attempt only (pixi's mirror config): written before, removed after, inside the
 * run's private directory, created exclusively without following links (src/files/private-files.ts).
 */
function writeAttemptFiles(command: CommandLine): string[] {
  const written: string[] = []
  try {
    for (const file of command.files ?? []) {
      writeNewFile(file.path, file.content)
      written.push(file.path)
    }
  } catch (error) {
    for (const path of written) rmSync(path, { force: true })
    throw error
  }
  return written
}

/** Kills children still running if resilient itself ends abruptly (execa's `cleanup`, which we do not load). */
const running = new Set<ChildProcess>()
let exitHookInstalled = false
function trackChild(child: ChildProcess): void {
  running.add(child)
  child.once('exit', () => running.delete(child))
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.once('exit', () => { for (const child of running) child.kill('SIGTERM') })
}

// node:child_process rather than execa on this one hot path: loading execa cost ~55 ms per run (npm run bench,
// figure b), and this function needs none of its conveniences: no buffering, no rejection, streams only.
async function runWithPipes(command: CommandLine, options: RunChildOptions): Promise<ChildResult> {
  const started = Date.now()
  const tail = new TailBuffer(options.tailBytes ?? 256 * 1024)
  const [file, ...args] = command.argv
  const child = spawn(file!, args, { env: options.env, cwd: options.cwd, stdio: ['inherit', 'pipe', 'pipe'], windowsHide: true })
  let spawnError: string | undefined
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(resolve => {
    child.once('error', error => {
      spawnError ??= error.message
      resolve({ code: null, signal: null })
    })
    child.once('close', (code, signal) => resolve({ code, signal }))
  })
  trackChild(child)
  const stdout = options.stdout ?? process.stdout
  const stderr = options.stderr ?? process.stderr
  // pipe() keeps backpressure (a slow consumer pauses the child); the data listener only records the tail.
  child.stdout?.on('data', (chunk: Buffer) => tail.push(chunk))
  child.stderr?.on('data', (chunk: Buffer) => tail.push(chunk))
  child.stdout?.pipe(stdout, { end: false })
  child.stderr?.pipe(stderr, { end: false })

  let interrupted: InterruptSignal | undefined
  let abortedBecause: string | undefined
  // Processes the child started, remembered when we stop it: they are reparented once the child exits, and must
  // not outlive the run (a build subprocess that ignores SIGINT, a background download).
  const leftovers = new Set<number>()
  const stopTree = (signal: NodeJS.Signals) => {
    if (!child.pid) return
    for (const pid of listDescendants(child.pid)) leftovers.add(pid)
    signalTree(child.pid, signal)
  }
  const onInterrupt = (signal: InterruptSignal) => {
    interrupted ??= signal
    if (child.pid) for (const pid of listDescendants(child.pid)) leftovers.add(pid)
    if (signal !== 'SIGINT' || !isInteractive()) {
      stopTree(signal)
      return
    }
    // A terminal delivers Ctrl-C to the whole foreground process group, the child included. Forward it only if
    // the child is still running a moment later (a `kill -INT` aimed at resilient alone).
    setTimeout(() => child.exitCode === null && stopTree('SIGINT'), 1000).unref()
  }
  options.interrupts.on('signal', onInterrupt)
  const onAbort = () => {
    abortedBecause = String(options.abort?.reason ?? 'aborted')
    stopTree('SIGTERM')
    setTimeout(() => child.exitCode === null && stopTree('SIGKILL'), options.killGraceMs ?? 1000).unref()
  }
  options.abort?.addEventListener('abort', onAbort, { once: true })
  if (child.pid) options.onSpawn?.(child.pid)

  // A grandchild that outlives the child (a background job, a build subprocess ignoring SIGINT) still holds the
  // output pipes, and the run would never end: once the child exits, stop what it left behind when we stopped it,
  // and stop waiting for the pipes soon after in any case.
  child.once('exit', () => {
    if (interrupted || abortedBecause) for (const pid of leftovers) signalTree(pid, 'SIGKILL')
    setTimeout(() => {
      child.stdout?.destroy()
      child.stderr?.destroy()
    }, 2000).unref()
  })
  const result = await closed
  options.interrupts.off('signal', onInterrupt)
  options.abort?.removeEventListener('abort', onAbort)
  return {
    exitCode: spawnError ? 127 : exitCodeOf(result.code, result.signal),
    output: tail.toString(),
    durationMs: Date.now() - started,
    interrupted: interrupted ?? options.interrupts.received,
    abortedBecause,
    spawnError,
  }
}

function isInteractive(): boolean {
  return Boolean(process.stdin.isTTY || process.stderr.isTTY)
}
