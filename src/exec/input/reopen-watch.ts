import { closeSync, constants, openSync, readFileSync } from 'node:fs'

const read = (path: string): string => {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}

/** `pid` and its descendants, walked through /proc/<pid>/task/<tid>/children (only the tree's own entries). */
function tree(pid: number): number[] {
  const pids = [pid]
  for (let i = 0; i < pids.length && i < 64; i++) {
    for (const child of read(`/proc/${pids[i]}/task/${pids[i]}/children`).split(' ')) if (child.trim()) pids.push(Number(child))
  }
  return pids
}

/**
 * Lets the tool open its input again by path (`cat /dev/stdin` in a script) after that input has ended. The input is
 * a FIFO of resilient's (Node has no pipe(2)), and opening a FIFO for reading waits for a writer (fifo_open, Linux
 * fs/pipe.c), where a shell's pipe would open at once: while a process of the tool's tree waits so
 * (`wait_for_partner` in /proc/<pid>/wchan), resilient opens the FIFO for writing through the tool's own descriptor
 * for a moment, which lets the open complete; the tool then reads what is left and the end. Returns the stop function.
 */
export function answerReopens(pid: number, childFd: number, inputEnded: () => boolean): () => void {
  const timer = setInterval(() => {
    if (!inputEnded() || !tree(pid).some(member => read(`/proc/${member}/wchan`) === 'wait_for_partner')) return
    try {
      closeSync(openSync(`/proc/${pid}/fd/${childFd}`, constants.O_WRONLY | constants.O_NONBLOCK))
    } catch {
      // the descriptor is gone, or no reader is left
    }
  }, 50)
  timer.unref()
  return () => clearInterval(timer)
}
