import { spawn } from 'node:child_process'
import { formatCommand } from '../argv/format-command.js'
import type { IndexChoice, ToolAdapter, ToolContext } from '../types.js'

export interface SourceAnswer {
  /** The tool's choice; null: its default index; undefined: it gave no answer resilient understands. */
  answer: IndexChoice | null | undefined
  /** The command asked, for messages: `python3 -m pip config list`. */
  asked: string
  /** Why there is no answer: the exit status, a timeout, the tool not starting. */
  failure?: string
}

/**
 * Asks the tool which index it uses (ToolAdapter.source), started as the person started it (the same launcher,
 * environment and folder), with no input and a time limit. Run at failure time only, so a healthy run never pays for
 * it; it never throws: whatever goes wrong is no answer, which counts as a private index.
 */
export function askToolForSource(adapter: ToolAdapter, context: ToolContext, launcher: readonly string[], timeoutMs = 20_000): Promise<SourceAnswer> {
  const question = adapter.source!.command(context, launcher)
  const asked = formatCommand({ argv: question.argv, env: {} })
  return new Promise(resolve => {
    let stdout = ''
    // A shim of resilient's on PATH runs the real tool directly for a child of resilient (RESILIENT_ACTIVE).
    const child = spawn(question.argv[0]!, question.argv.slice(1), { cwd: question.cwd ?? context.cwd, env: { ...context.env, RESILIENT_ACTIVE: '1' }, stdio: ['ignore', 'pipe', 'ignore'], timeout: timeoutMs, windowsHide: true })
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => { if (stdout.length < 1_000_000) stdout += chunk })
    child.on('error', error => resolve({ answer: undefined, asked, failure: error.message }))
    child.on('close', (code, signal) => {
      if (code !== 0) return resolve({ answer: undefined, asked, failure: signal ? `stopped by ${signal}` : `exit ${code}` })
      const answer = adapter.source!.read(stdout, context)
      resolve({ answer, asked, ...(answer === undefined && { failure: 'its output was not understood' }) })
    })
  })
}
