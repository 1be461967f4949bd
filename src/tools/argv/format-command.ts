import { printable, redact } from '../../redact.js'
import type { CommandLine } from '../context.js'

const SAFE = /^[A-Za-z0-9_./:=@%+,^-]+$/

function quote(raw: string): string {
  // Control bytes from outside (an argument with a newline or ESC) are shown escaped: never a new line that a CI
  // runner reads as a workflow command, never a sequence the terminal obeys.
  const word = printable(raw, { escapeOnly: true })
  if (word !== '' && SAFE.test(word)) return word
  return `'${word.replace(/'/g, `'\\''`)}'`
}

/** The one string form of a command, used by --dry-run, messages, logs and tests. Secrets are redacted. */
export function formatCommand(command: CommandLine): string {
  const env = Object.entries(command.env).map(([name, value]) => `${name}=${quote(value)}`)
  const files = (command.files ?? []).map(file => `# with ${printable(file.path)}`)
  return redact([...env, ...command.argv.map(quote)].join(' ') + (files.length ? ` ${files.join(' ')}` : ''))
}
