import type { ReadOnlyCommand, ReadOnlyForms } from '../types.js'

/** `--version` and `--help` in the spellings a tool accepts, each alone on the command line. */
export function versionAndHelp(...spellings: string[]): ReadOnlyCommand[] {
  return spellings.map(spelling => ({ words: [spelling], exact: true }))
}

/** The same rules for several commands: `named(['ls', 'list'])`, `named(['get', 'list'], { under: ['config'] })`. */
export function named(names: readonly string[], { under = [], ...rules }: Omit<ReadOnlyCommand, 'words'> & { under?: readonly string[] } = {}): ReadOnlyCommand[] {
  return names.map(name => ({ words: [...under, name], ...rules }))
}

/**
 * Patterns for a short option cluster holding one of `letters` (`-o`, `-lo`, `-ov`): parsers such as optparse
 * and argparse read `-lo` as `-l -o`.
 */
export function shortCluster(letters: string): string[] {
  return [`-[${letters}]*`, `-[!-]*[${letters}]*`]
}

/** An sh `case` pattern as a regular expression: `*`, `?` and bracket expressions (`[!...]` negates). */
export function globToRegExp(glob: string): RegExp {
  let source = ''
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!
    if (char === '*') source += '[\\s\\S]*'
    else if (char === '?') source += '[\\s\\S]'
    else if (char === '[') {
      const end = glob.indexOf(']', index + 2)
      if (end === -1) throw new Error(`unclosed bracket in ${glob}`)
      const body = glob.slice(index + 1, end)
      const negated = body.startsWith('!')
      source += `[${negated ? '^' : ''}${(negated ? body.slice(1) : body).replace(/[\\\]^]/g, '\\$&')}]`
      index = end
    } else source += char.replace(/[.+^${}()|\\]/g, '\\$&')
  }
  return new RegExp(`^${source}$`)
}

/** Whether `args` (after the executable) is one of the read-only forms: the specification the shims' sh follows. */
export function isReadOnly(forms: ReadOnlyForms, args: readonly string[]): boolean {
  let start = 0
  while (start < args.length && forms.leadingFlags.includes(args[start]!)) start++
  const rest = args.slice(start)
  const command = forms.commands.find(({ words }) => words.every((word, index) => rest[index] === word))
  if (!command) return false
  const after = rest.slice(command.words.length)
  if (command.exact) return after.length === 0
  const deny = (command.deny ?? []).map(globToRegExp)
  return !after.some(arg => deny.some(pattern => pattern.test(arg)))
}
