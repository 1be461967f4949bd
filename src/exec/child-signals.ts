import type { Interrupts } from './interrupts.js'
import { endsProcess, TERMINAL_SIGNALS } from './signals.js'

export interface SignalTarget {
  pid: number
  /**
   * The tool shares resilient's process group (its stdin is the caller's terminal, which it may read, and only the
   * terminal's foreground group may). Otherwise it leads its own session, and only resilient passes signals to it.
   */
  sharesGroup: boolean
  /** Called on a terminal resize, before the tool is told (a pseudo-terminal is resized first). */
  onResize?: () => void
}

function send(pid: number, signal: NodeJS.Signals | 'SIGSTOP'): void {
  try {
    process.kill(pid, signal)
  } catch {
    // already gone
  }
}

/**
 * Passes the signals resilient receives on to the tool, each exactly once, and records the first one that ends a
 * process (nothing is retried after it). In its own session the tool receives nothing unless resilient passes it,
 * to its whole group as a terminal or timeout(1) would. Sharing resilient's group, it already received what a
 * terminal sends to the foreground group (Ctrl-C, Ctrl-\, Ctrl-Z, a hangup, a resize): only the rest is sent, to the
 * tool alone. Job control: a Ctrl-Z given to resilient stops the tool's group first and `fg` continues it.
 */
export function forwardSignals(interrupts: Interrupts, target: SignalTarget): { received: () => NodeJS.Signals | undefined; stop: () => void } {
  let received: NodeJS.Signals | undefined
  const destination = target.sharesGroup ? target.pid : -target.pid
  const onSignal = (signal: NodeJS.Signals) => {
    if (endsProcess(signal)) received ??= signal
    if (signal === 'SIGWINCH') target.onResize?.()
    if (signal === 'SIGTSTP') return // see suspend/resume
    if (target.sharesGroup && (TERMINAL_SIGNALS.has(signal) || signal === 'SIGCONT')) {
      // The tool read the size of its pseudo-terminal when the terminal's SIGWINCH reached it: tell it again.
      if (signal === 'SIGWINCH' && target.onResize) send(target.pid, 'SIGWINCH')
      return
    }
    send(destination, signal)
  }
  // A tool in its own session is in an orphaned process group, where the kernel discards SIGTSTP (signal(7), "job
  // control"): SIGSTOP is the one stop that reaches it. Sharing the group, the terminal stopped the tool already.
  const onSuspend = () => !target.sharesGroup && send(destination, 'SIGSTOP')
  const onResume = () => !target.sharesGroup && send(destination, 'SIGCONT')
  interrupts.on('signal', onSignal).on('suspend', onSuspend).on('resume', onResume)
  return {
    received: () => received,
    stop: () => void interrupts.off('signal', onSignal).off('suspend', onSuspend).off('resume', onResume),
  }
}
