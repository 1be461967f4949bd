import { spawn } from 'node:child_process'
import type { Socket } from 'node:net'

// Reads the tool's pid (or -pgid) on its first line, then waits for a second line, which resilient writes when the
// tool has exited. End of file before the first line means no tool was started (or resilient died before it could
// say which): nothing to do. End of file after it, without the second, means resilient died without cleaning up
// (SIGKILL, a crash): the tool is stopped then, TERM first, KILL after a grace period. Given paths, it first makes
// them FIFOs for the first attempt's pipes (output/fifos.ts) and says whether it did on its stdout: Node has no
// mkfifo(2), and each process Node starts costs ~5 ms of its main thread on the 2-core machine, so one process does both.
const WATCHDOG = `trap '' HUP INT QUIT TERM TSTP TTIN TTOU
[ $# -eq 0 ] || { mkfifo -m 600 "$@" 2>/dev/null && echo made || echo failed; }
read -r target || exit 0
read -r done && exit 0
kill -TERM "$target" 2>/dev/null || exit 0
sleep 2
kill -KILL "$target" 2>/dev/null
exit 0`

/** A watchdog started ahead of the tool: `watch` names the tool once it runs, `cancel` ends it when none started. */
export interface Watchdog {
  /** `target` is a pid, or a negative process group id. Returns the function to call once the tool has exited. */
  watch(target: number): () => void
  cancel(): void
  /** The watchdog's process, where it started. */
  pid?: number
}

/** Started with the FIFOs of a run's first attempt, for that attempt to take (startWatchdog). */
let spare: Watchdog | undefined

function spawnWatchdog(fifos: readonly string[], whenMade?: (made: boolean) => void): Watchdog {
  let told = false
  const onFifos = (made: boolean) => {
    if (told) return
    told = true
    whenMade?.(made)
  }
  let dog: ReturnType<typeof spawn>
  try {
    dog = spawn('/bin/sh', ['-c', WATCHDOG, 'resilient-watchdog', ...fifos], { detached: true, stdio: ['pipe', fifos.length ? 'pipe' : 'ignore', 'ignore'] })
  } catch {
    onFifos(false)
    return { watch: () => () => {}, cancel: () => {} }
  }
  dog.on('error', () => onFifos(false))
  dog.stdin?.on('error', () => {})
  if (dog.stdout) {
    // Its one line, read without keeping resilient alive for it.
    (dog.stdout as Socket).unref()
    dog.stdout.once('data', (line: Buffer) => {
      onFifos(line.toString().startsWith('made'))
      dog.stdout?.destroy()
    })
    dog.stdout.on('error', () => {})
    dog.stdout.once('close', () => onFifos(false))
  }
  dog.unref()
  return {
    pid: dog.pid,
    watch: target => {
      dog.stdin?.write(`${target < 0 ? `-${-target}` : String(target)}\n`)
      return () => void dog.stdin?.end('done\n')
    },
    cancel: () => void dog.stdin?.end(),
  }
}

/**
 * Starts the watchdog of the next attempt now, and has it make `fifos` (0600) first; `onFifos` is told whether it
 * did. Ends of itself with resilient should no attempt take it.
 */
export function prepareWatchdog(fifos: readonly string[], onFifos: (made: boolean) => void): void {
  spare?.cancel()
  spare = spawnWatchdog(fifos, onFifos)
}

/**
 * A tiny sh process, in its own session so that no signal sent to resilient's group reaches it, that stops the tool
 * if resilient is killed first. Node can ask the kernel for none of the usual means (prctl PR_SET_PDEATHSIG, a
 * subreaper), and SIGKILL runs no handler, so the watch is a pipe whose other end only resilient holds.
 * It is started before the tool: starting it after left the time a fork takes (tens of milliseconds on a loaded
 * machine) during which a SIGKILL of resilient left the tool running (seen in CI: the tool and its helper outlived
 * resilient); what remains is the write of one line, right after the tool's spawn. The one prepared with the run's
 * FIFOs is taken when there is one.
 */
export function startWatchdog(): Watchdog {
  const prepared = spare
  spare = undefined
  return prepared ?? spawnWatchdog([])
}
