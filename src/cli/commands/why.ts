import { readFileSync } from 'node:fs'
import { diagnose } from '../../diagnose/index.js'
import { ResilientError, EXIT } from '../../errors.js'
import { redact } from '../../redact.js'

async function readInput(file: string | undefined): Promise<string> {
  if (file && file !== '-') {
    try {
      return readFileSync(file, 'utf8')
    } catch (error) {
      throw new ResilientError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`, EXIT.usage, 'Give the path of a saved log, or pipe the log in: resilient why < build.log')
    }
  }
  if (process.stdin.isTTY) throw new ResilientError('No log given.', EXIT.usage, 'Give a file (resilient why build.log) or pipe a log in (pip install x 2>&1 | resilient why).')
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** `resilient why [--tool] [--json] [file]`: a first version; the full engine grows in src/diagnose/. */
export async function runWhy(file: string | undefined, options: { tool?: string; json?: boolean }): Promise<number> {
  const text = await readInput(file)
  if (!text.trim()) throw new ResilientError('The log is empty.', EXIT.usage, 'Save the failing command\'s output with 2>&1, then run resilient why on it.')
  const diagnosis = diagnose({ tool: options.tool ?? null, output: text })
  if (options.json) {
    process.stdout.write(`${redact(JSON.stringify({ category: diagnosis.category, retryable: diagnosis.retryable, remedy: diagnosis.remedy.kind,
      summary: diagnosis.summary, evidence: diagnosis.evidence, host: diagnosis.facts.host ?? null, tool: options.tool ?? null }))}\n`)
    return 0
  }
  const lines = [`${diagnosis.category}: ${diagnosis.summary}`, ...diagnosis.evidence.map(line => `  │ ${line}`),
    `retry or another mirror can help: ${diagnosis.retryable ? 'yes' : 'no'}`]
  if (diagnosis.hint) lines.push(`what to do: ${diagnosis.hint}`)
  process.stdout.write(`${redact(lines.join('\n'))}\n`)
  return 0
}
