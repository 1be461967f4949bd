import { EventEmitter } from 'node:events'

export type InterruptSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP'

/**
 * The user's interrupts, as data: the CLI feeds it from process signals (or a raw-mode Ctrl-C), the running
 * child reacts, and the retry loop reads `received` to never retry after an interrupt.
 */
export class Interrupts extends EventEmitter<{ signal: [InterruptSignal] }> {
  received: InterruptSignal | undefined

  raise(signal: InterruptSignal): void {
    this.received ??= signal
    this.emit('signal', signal)
  }
}
