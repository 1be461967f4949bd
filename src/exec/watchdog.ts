import { spawn } from 'node:child_process'

// Waits for a line on stdin, which resilient writes when the tool has exited. End of file without it means resilient
// died without cleaning up (SIGKILL, a crash): the tool is stopped then, TERM first, KILL after a grace period.
const WATCHDOG = `trap '' HUP INT QUIT TERM TSTP TTIN TTOU
read -r done && exit 0
kill -TERM "$1" 2>/dev/null || exit 0
sleep 2
kill -KILL "$1" 2>/dev/null
exit 0`

/**
 * A tiny sh process, in its own session so that no signal sent to resilient's group reaches it, that stops the tool
 * if resilient is killed first. Node can ask the kernel for none of the usual means (prctl PR_SET_PDEATHSIG, a
 * subreaper), and SIGKILL runs no handler, so the watch is a pipe whose other end only resilient holds.
 * `target` is a pid, or a negative process group id. Returns the function to call once the tool has exited.
 */
export function startWatchdog(target: number): () => void {
  let dog: ReturnType<typeof spawn>
  try {
    dog = spawn('/bin/sh', ['-c', WATCHDOG, 'resilient-watchdog', target < 0 ? `-${-target}` : String(target)], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] })
  } catch {
    return () => {}
  }
  dog.on('error', () => {})
  dog.stdin?.on('error', () => {})
  dog.unref()
  return () => {
    dog.stdin?.end('done\n')
  }
}
