import type { Answer, Question } from './consent.js'
import type { InterruptSignal, Interrupts } from '../exec/interrupts.js'
import { redact } from '../redact.js'

/**
 * The one question of `resilient run`, in the terminal. Ctrl-C at the prompt is an interrupt (130), not a "no";
 * SIGTERM and SIGHUP end the question at once (resilient listens for them, so without this the prompt would wait
 * for a key): the answer is then the signal, and the caller exits with its code.
 */
export async function askInTerminal(lines: string[], question: Question, interrupts: Interrupts): Promise<Answer | { interrupted: InterruptSignal }> {
  process.stderr.write(`${redact(lines.join('\n'))}\n`)
  if (interrupts.received) return { interrupted: interrupts.received }
  const controller = new AbortController()
  const abort = (signal: InterruptSignal) => controller.abort(signal)
  interrupts.on('signal', abort)
  const context = { input: process.stdin, output: process.stderr, signal: controller.signal }
  try {
    const { confirm, select } = await import('@inquirer/prompts')
    const yesNo = question.choices.length === 2 && question.choices[0]!.value === 'all' && question.choices[1]!.value === 'none'
    if (yesNo) return (await confirm({ message: question.message, default: question.default === 'all' }, context)) ? 'all' : 'none'
    return await select<Answer>({ message: question.message, choices: question.choices, default: question.default }, context)
  } catch (error) {
    const name = (error as Error).name
    if (name === 'AbortPromptError') return { interrupted: interrupts.received ?? 'SIGTERM' }
    // Ctrl-C, or the terminal went away under the prompt (signal-exit's report names the signal).
    if (name === 'ExitPromptError') return { interrupted: /SIGINT/.test((error as Error).message) ? 'SIGINT' : 'SIGHUP' }
    throw error
  } finally {
    interrupts.off('signal', abort)
  }
}
