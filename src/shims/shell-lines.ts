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

/** Lines that make each tool name run through resilient in an interactive shell (`resilient init <shell>`). */
export function aliasLines(shell: Shell, tools: string[], resilientArgv: string[]): string[] {
  const resilient = commandText(shell, resilientArgv)
  switch (shell) {
    case 'fish':
      return tools.map(tool => `function ${tool} --wraps ${tool}; ${resilient} ${tool} $argv; end`)
    case 'powershell':
      // A function is visible to the shell only: resilient starts the real executable, so it never calls itself.
      return tools.map(tool => `function ${tool} { ${resilient} ${tool} @args }`)
    default:
      return tools.map(tool => `alias ${tool}=${single(`${resilient} ${tool}`)}`)
  }
}
