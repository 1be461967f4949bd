import { EventEmitter } from 'node:events'
import { endsProcess } from './signals.js'

/** A signal that ends a process unless handled: nothing is retried after one. */
export type InterruptSignal = NodeJS.Signals

/**
 * The signals resilient receives, as data: the CLI feeds it from its process signal listeners, the running child
 * passes them on (src/exec/child-signals.ts), and the retry loop reads `received` to never retry after an interrupt.
 * `suspend` and `resume` are job control: the CLI emits them around stopping resilient itself (Ctrl-Z, `fg`).
 */
export class Interrupts extends EventEmitter<{ signal: [NodeJS.Signals]; suspend: []; resume: [] }> {
  received: InterruptSignal | undefined

  raise(signal: NodeJS.Signals): void {
    if (endsProcess(signal)) this.received ??= signal
    this.emit('signal', signal)
  }
}
