import { spawn } from 'node:child_process'

// Reads the tool's pid (or -pgid) on its first line, then waits for a second line, which resilient writes when the
// tool has exited. End of file before the first line means no tool was started (or resilient died before it could
// say which): nothing to do. End of file after it, without the second, means resilient died without cleaning up
// (SIGKILL, a crash): the tool is stopped then, TERM first, KILL after a grace period.
const WATCHDOG = `trap '' HUP INT QUIT TERM TSTP TTIN TTOU
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
}

/**
 * A tiny sh process, in its own session so that no signal sent to resilient's group reaches it, that stops the tool
 * if resilient is killed first. Node can ask the kernel for none of the usual means (prctl PR_SET_PDEATHSIG, a
 * subreaper), and SIGKILL runs no handler, so the watch is a pipe whose other end only resilient holds.
 * It is started before the tool: starting it after left the time a fork takes (tens of milliseconds on a loaded
 * machine) during which a SIGKILL of resilient left the tool running (seen in CI: the tool and its helper outlived
 * resilient); what remains is the write of one line, right after the tool's spawn.
 */
export function startWatchdog(): Watchdog {
  let dog: ReturnType<typeof spawn>
  try {
    dog = spawn('/bin/sh', ['-c', WATCHDOG, 'resilient-watchdog'], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] })
  } catch {
    return { watch: () => () => {}, cancel: () => {} }
  }
  dog.on('error', () => {})
  dog.stdin?.on('error', () => {})
  dog.unref()
  return {
    watch: target => {
      dog.stdin?.write(`${target < 0 ? `-${-target}` : String(target)}\n`)
      return () => void dog.stdin?.end('done\n')
    },
    cancel: () => void dog.stdin?.end(),
  }
}
