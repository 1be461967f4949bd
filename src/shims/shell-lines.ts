import type { ReadOnlyForms } from '../tools/types.js'
import { readOnlyFunction } from './read-only-script.js'
import { basename } from 'node:path'

export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const
export type Shell = (typeof SHELLS)[number]

/** The person's shell, from $SHELL (PowerShell sets PSModulePath); bash when unknown. */
export function detectShell(env: NodeJS.ProcessEnv): Shell {
  const name = basename(env.SHELL ?? '')
  if (name === 'zsh' || name === 'fish' || name === 'bash') return name
  if (env.PSModulePath && !env.SHELL) return 'powershell'
  return 'bash'
}

/** Where each shell reads its per-user start-up lines. */
export const PROFILE_FILES: Record<Shell, string> = {
  bash: '~/.bashrc',
  zsh: '~/.zshrc',
  fish: '~/.config/fish/config.fish',
  powershell: '$PROFILE',
}

const single = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`
const double = (text: string) => `"${text.replace(/(["\\$`])/g, '\\$1')}"`
// PowerShell: single quotes are literal, a quote inside is doubled.
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`
const SAFE = /^[A-Za-z0-9_./:@%+=,-]+$/

/** A command (argv) as the shell would need it typed. */
function commandText(shell: Shell, argv: string[]): string {
  if (shell === 'powershell') return argv.every(word => SAFE.test(word)) ? argv.join(' ') : `& ${argv.map(literal).join(' ')}`
  return argv.map(word => SAFE.test(word) ? word : single(word)).join(' ')
}

/** The exact line that puts `dir` first on PATH, for the shell's profile. */
export function pathLine(shell: Shell, dir: string): string {
  switch (shell) {
    case 'fish':
      return `fish_add_path --prepend --path ${single(dir)}`
    case 'powershell':
      return `$env:PATH = ${literal(dir)} + [IO.Path]::PathSeparator + $env:PATH`
    default:
      return `export PATH=${double(dir)}:"$PATH"`
  }
}

/**
 * A bash or zsh function standing in for `tool`: a read-only call (`npm --version`, `pip list`) runs the real tool
 * at once, as a shim does, with the same check (src/shims/read-only-script.ts); anything else goes through resilient.
 * `function name {` rather than `name() {`: an alias of that name already loaded would be expanded in the latter.
 */
function shellFunction(tool: string, resilient: string, readOnly: ReadOnlyForms | undefined): string[] {
  const through = `${resilient} ${tool} "$@"`
  if (!readOnly) return [`unalias ${tool} 2>/dev/null`, `function ${tool} { ${through}; }`]
  // zsh has no `for name do` without `in`: the loop over the arguments is spelt out.
  const body = readOnlyFunction(readOnly).split('\n').slice(1, -1).map(line => line.replace(/for arg do/g, 'for arg in "$@"; do'))
  const check = `__resilient_read_only_${tool.replace(/\W/g, '_')}`
  return [`unalias ${tool} 2>/dev/null`, `function ${check} {`, ...body, '}',
    `function ${tool} { if [ -z "\${RESILIENT_NO_SHIM:-}" ] && ! ${check} "$@"; then ${through}; else command ${tool} "$@"; fi; }`]
}

/**
 * Lines that make each tool name run through resilient in an interactive shell (`resilient init <shell>`): bash and
 * zsh get functions that keep the shims' fast path for read-only calls; fish and PowerShell functions always start
 * resilient (init says shims are faster there).
 */
export function aliasLines(shell: Shell, tools: string[], resilientArgv: string[], readOnlyFor: (tool: string) => ReadOnlyForms | undefined = () => undefined): string[] {
  const resilient = commandText(shell, resilientArgv)
  switch (shell) {
    case 'fish':
      return tools.map(tool => `function ${tool} --wraps ${tool}; ${resilient} ${tool} $argv; end`)
    case 'powershell':
      // A function is visible to the shell only: resilient starts the real executable, so it never calls itself.
      return tools.map(tool => `function ${tool} { ${resilient} ${tool} @args }`)
    default:
      return tools.flatMap(tool => shellFunction(tool, resilient, readOnlyFor(tool)))
  }
}
