import { Interrupts } from '../exec/interrupts.js'
import { ReplayableInput } from '../exec/input/replayable-input.js'
import { listenForInterrupts } from '../run/child-exec.js'

/**
 * What both runs of `resilient run`'s script share: the interrupts resilient routes to it (and to an install between
 * the two), and its stdin, kept so that the second run reads the same bytes, or does not happen (docs/process.md).
 */
export function openScriptSession(command: string[], replayInputMegabytes: number): { interrupts: Interrupts; input: ReplayableInput; stopListening(): void } {
  const interrupts = new Interrupts()
  const stopListening = listenForInterrupts(interrupts)
  const input = new ReplayableInput({ argv: command, limitBytes: Math.round(replayInputMegabytes * 1_000_000) })
  return { interrupts, input, stopListening }
}
