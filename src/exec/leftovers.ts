import type { Interrupts } from './interrupts.js'
import { listDescendants, listHolders, signalTree, type OutputFile } from './process-tree.js'
import { endsProcess } from './signals.js'

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal)
  } catch {
    // the group is gone
  }
}

/**
 * What an interrupted or abandoned tool leaves running: processes it started (a build subprocess that ignores SIGINT,
 * a background job) are reparented once it exits and would hold resilient's output open. They are remembered while
 * still the tool's children, and stopped with whatever still holds the output, once the tool has exited.
 */
export class Leftovers {
  private readonly pids = new Set<number>()
  private readonly onSignal = (signal: NodeJS.Signals) => endsProcess(signal) && this.remember()
  private exited = false
  private shouldStop = false

  constructor(private readonly pid: number, private readonly sharesGroup: boolean, private readonly interrupts: Interrupts, private readonly outputs: readonly OutputFile[]) {
    interrupts.on('signal', this.onSignal)
  }

  /** Stops the tool's tree (its own process group when it has one) with `signal`, resilient's own decision. */
  stopTree(signal: NodeJS.Signals): void {
    this.remember()
    this.shouldStop = true
    if (this.sharesGroup) signalTree(this.pid, signal)
    else signalGroup(this.pid, signal)
  }

  /**
   * The tool exited: if it was interrupted, stopped or died of a signal, what it left is stopped now; a signal that
   * arrives later (the exit and the signal reach resilient in either order) stops it then.
   */
  toolExited(interrupted: boolean, diedOf: NodeJS.Signals | null): void {
    this.exited = true
    if (interrupted || this.shouldStop || (diedOf && endsProcess(diedOf))) this.stopAll()
  }

  /** Stops listening (the run is over). */
  release(): void {
    this.interrupts.off('signal', this.onSignal)
  }

  private remember(): void {
    for (const descendant of listDescendants(this.pid)) this.pids.add(descendant)
    if (this.exited) this.stopAll()
  }

  private stopAll(): void {
    for (const leftover of [...this.pids, ...listHolders(this.outputs)]) signalTree(leftover, 'SIGKILL')
    if (!this.sharesGroup) signalGroup(this.pid, 'SIGKILL')
  }
}
