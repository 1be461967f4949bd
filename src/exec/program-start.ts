import { readdirSync, readFileSync } from 'node:fs'
import { stripSequences } from '../secrets/printable.js'
import type { ProgramRun } from '../tools/types.js'
import { listDescendants } from './process-tree.js'

/** Whether a tool (npx, `pnpm dlx`...) started a process of its own; `seen()` is undefined where that cannot be told. */
export interface ProgramStartWatch {
  seen(): boolean | undefined
  stop(): void
  /**
   * Stops looking and keeps the answer of this moment for good: resilient is about to stop the tool itself, and
   * what the dying tree does then (the tool killing its own step, a zombie for a moment) is resilient's doing, not
   * a program starting.
   */
  settle(): boolean | undefined
}

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

/** The children running now, from each thread's `children` list (Linux 3.5+), else every descendant. */
function childrenOf(pid: number): number[] {
  let threads: string[]
  try {
    threads = readdirSync(`/proc/${pid}/task`)
  } catch {
    return []
  }
  const lists = threads.map(tid => read(`/proc/${pid}/task/${tid}/children`))
  if (lists.every(list => list === undefined)) return listDescendants(pid)
  return lists.flatMap(list => (list ?? '').split(' ').filter(Boolean).map(Number))
}

const argvOf = (pid: number) => (read(`/proc/${pid}/cmdline`) ?? '').split('\0').filter(Boolean)
/** The process's state letter (field 3 of /proc/<pid>/stat): `Z` for a zombie; undefined once it is gone. */
const stateOf = (pid: number) => { const stat = read(`/proc/${pid}/stat`); return stat?.[stat.lastIndexOf(')') + 2] }

/**
 * Watches a tool for the program it fetches and runs, from /proc, every `intervalMs` until one is seen: a child
 * running, or one it already waited for (a reaped child's CPU time is added to the parent's cutime and cstime,
 * fields 16 and 17 of /proc/<pid>/stat, and starting Node or sh costs more than the one tick it takes to show). npm,
 * pnpm, yarn and bun fetch in their own process and start the program as a child (bun's `--bun` aside).
 */
export function watchProgramStart(pid: number, { onStart = () => {}, ownStep, intervalMs = 25 }: { onStart?: () => void; ownStep?: ProgramRun['ownStep']; intervalMs?: number } = {}): ProgramStartWatch {
  let seen: boolean | undefined
  let settled = false
  // The tool's own steps seen alive: once ended, each is a zombie without argv until the tool reaps it, which must
  // not count as a program (bun x kills its `bun add` child when stopped: seen under load, 1 run in ~20).
  const ownSteps = new Set<number>()
  // A child is a program unless it is one of the tool's own steps, or not yet anything: between fork and exec it still
  // shows the tool's own argv (read at each look, not once: the tool itself may not have reached its own exec when the
  // watch starts), and in the middle of its exec none at all (measured: a few looks in a thousand, more on a loaded
  // machine). Either is told at the next look. A zombie shows no argv either, and counts: it may have been a program.
  const isProgram = (child: number) => {
    if (!ownStep) return true
    const argv = argvOf(child)
    if (ownStep(argv)) {
      ownSteps.add(child)
      return false
    }
    if (argv.length === 0) return stateOf(child) === 'Z' && !ownSteps.has(child)
    return argv.join('\0') !== argvOf(pid).join('\0')
  }
  const check = () => {
    if (settled) return
    const stat = read(`/proc/${pid}/stat`)
    if (stat === undefined) return
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // Where the tool fetches through children of its own (ownStep), a reaped child says nothing: only the living count.
    const reaped = !ownStep && Number(fields[13]) + Number(fields[14]) > 0
    if (reaped || childrenOf(pid).some(isProgram)) {
      seen = true
      stop()
      onStart()
    } else {
      seen = false
    }
  }
  const timer = setInterval(check, intervalMs)
  timer.unref()
  const stop = () => clearInterval(timer)
  check()
  // Asked (an abort about to stop the tool, the attempt's end), it looks again rather than trust the last tick.
  const settle = () => {
    if (seen === false) check()
    settled = true
    stop()
    return seen
  }
  return { seen: () => (seen === false && check(), seen), stop, settle }
}

/**
 * What an ended attempt of a program run was. Only a fetch that failed before any program started may be tried again
 * (the tool's own error last, or resilient stopped the fetch itself, and no process of its own seen); otherwise
 * `refusal` says why not. `programRan`: the status is the program's own (or the tool's for a cause no retry
 * changes), to pass on as it is.
 */
export function judgeProgramAttempt(program: ProgramRun, { args, output, started, stopped, tool }: { args: readonly string[]; output: string; started: boolean | undefined; stopped: boolean; tool: string }): { programRan: boolean; refusal?: string } {
  // A stop reaches the tool only while no program runs (untilProgramStarts): the fetch was still going on.
  const fetchFailed = (stopped && started === false) || program.fetchFailed(stripSequences(output))
  // Without the tool's own fetch error last, what failed is the program, or the tool for a reason no mirror changes.
  const programRan = started === true || !fetchFailed
  const never = program.neverRetried?.(args)
  if (never) return { programRan, refusal: never }
  if (started === undefined) return { programRan, refusal: `resilient cannot see here whether ${tool} had started the program (no /proc), so it runs once` }
  if (started) return { programRan, refusal: `${tool} had started the program, which runs once, never again` }
  return { programRan, refusal: fetchFailed ? undefined : `${tool}'s output does not end in its own fetch error, so the failure may be the program's` }
}

/** The abort for an attempt of a program run: it reaches the tool only while no program has started. */
export function untilProgramStarts(abort: AbortSignal | undefined, started: () => boolean): AbortSignal | undefined {
  if (!abort) return undefined
  const gated = new AbortController()
  abort.addEventListener('abort', () => !started() && gated.abort(abort.reason), { once: true })
  return gated.signal
}
