import type { ReadOnlyCommand, ReadOnlyForms } from '../tools/types.js'

// Words and patterns are written into sh and cmd scripts unquoted: only characters neither shell treats specially.
const WORD = /^-{0,2}[A-Za-z0-9][A-Za-z0-9._=-]*$/
const PATTERN = /^[A-Za-z0-9._=*?![\]-]+$/

/** Refuses forms a script cannot state exactly: odd characters, or one command's words starting another's. */
export function checkForms(forms: ReadOnlyForms): void {
  for (const word of [...forms.leadingFlags, ...forms.commands.flatMap(command => command.words)]) {
    if (!WORD.test(word)) throw new Error(`read-only word ${JSON.stringify(word)} cannot be written into a shim`)
  }
  for (const pattern of forms.commands.flatMap(command => command.deny ?? [])) {
    if (!PATTERN.test(pattern)) throw new Error(`read-only pattern ${JSON.stringify(pattern)} cannot be written into a shim`)
  }
  for (const a of forms.commands) {
    for (const b of forms.commands) {
      if (a !== b && a.words.every((word, index) => b.words[index] === word)) throw new Error(`read-only command "${a.words.join(' ')}" starts "${b.words.join(' ')}"`)
    }
  }
}

interface Branch {
  word: string
  command?: ReadOnlyCommand
  children: Branch[]
}

function branchesOf(commands: readonly ReadOnlyCommand[], depth = 0): Branch[] {
  const branches: Branch[] = []
  for (const command of commands) {
    const word = command.words[depth]!
    let branch = branches.find(existing => existing.word === word)
    if (!branch) branches.push(branch = { word, children: [] })
    if (command.words.length === depth + 1) branch.command = command
  }
  for (const branch of branches) branch.children = branchesOf(commands.filter(command => command.words[depth] === branch.word && command.words.length > depth + 1), depth + 1)
  return branches
}

/** What may follow a command's words, as one line of sh whose status is the answer. */
function restCheck(command: ReadOnlyCommand): string {
  if (command.exact) return 'shift; [ $# -eq 0 ]'
  if (!command.deny?.length) return ':'
  return `shift; for arg do case $arg in ${command.deny.join('|')}) return 1 ;; esac; done`
}

function caseOf(branches: Branch[], indent: string): string[] {
  const lines = [`${indent}case \${1-} in`]
  // Commands that end here with the same check share one branch: `freeze|show|check) : ;;`.
  const ending = new Map<string, string[]>()
  for (const branch of branches.filter(each => each.command)) {
    const check = restCheck(branch.command!)
    ending.set(check, [...(ending.get(check) ?? []), branch.word])
  }
  for (const [check, words] of ending) lines.push(`${indent}  ${words.join('|')}) ${check} ;;`)
  for (const branch of branches.filter(each => !each.command)) {
    lines.push(`${indent}  ${branch.word})`, `${indent}    shift`, ...caseOf(branch.children, `${indent}    `), `${indent}    ;;`)
  }
  lines.push(`${indent}  *) return 1 ;;`, `${indent}esac`)
  return lines
}

/** `read_only() { ... }`: status 0 when "$@" is one of the forms (src/tools/argv/read-only.ts isReadOnly is its spec). */
export function readOnlyFunction(forms: ReadOnlyForms): string {
  checkForms(forms)
  const lines = ['read_only() {']
  if (forms.leadingFlags.length) {
    lines.push('  while [ $# -gt 0 ]; do', `    case $1 in ${forms.leadingFlags.join('|')}) shift ;; *) break ;; esac`, '  done')
  }
  lines.push(...caseOf(branchesOf(forms.commands), '  '), '}')
  return lines.join('\n')
}

/**
 * The cmd.exe form: a `:read_only` subroutine that exits 0 for a read-only call. cmd has no patterns, so commands
 * with a deny list are left to resilient; leading flags are skipped with shift.
 */
export function readOnlySubroutine(forms: ReadOnlyForms): string {
  checkForms(forms)
  const lines = [':read_only']
  for (const flag of forms.leadingFlags) lines.push(`if "%~1"=="${flag}" (shift & goto read_only)`)
  for (const command of forms.commands.filter(each => !each.deny?.length)) {
    const tests = command.words.map((word, index) => `if "%~${index + 1}"=="${word}" `).join('')
    const rest = command.exact ? `if "%~${command.words.length + 1}"=="" ` : ''
    lines.push(`${tests}${rest}exit /b 0`)
  }
  lines.push('exit /b 1')
  return lines.join('\r\n')
}
