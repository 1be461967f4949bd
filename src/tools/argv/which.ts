import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, join, resolve } from 'node:path'

/** Where a command name leads, as a POSIX shell's command search finds it. */
export type ProgramLookup =
  | { kind: 'found'; path: string }
  /** Only files without execute permission carry the name: the shell's 126, "Permission denied". */
  | { kind: 'not-executable'; path: string }
  | { kind: 'missing' }

export interface LookupOptions {
  /** Directories to pass over (a shim's own). */
  skip?: (dir: string) => boolean
  /** Relative PATH entries are relative to it (default: the current directory). */
  cwd?: string
}

/**
 * Looks a command up as bash does (findcmd.c): a name with a slash is used as it is; otherwise the first executable
 * regular file along PATH wins, an empty entry meaning the current directory and a relative one being taken from it,
 * as the shell takes them. Nothing after the first executable match is ever considered: running "the next pip on
 * PATH" when the first one is broken would install into another environment.
 */
export function lookupProgram(name: string, env: NodeJS.ProcessEnv, options: LookupOptions = {}): ProgramLookup {
  if (name.includes('/')) return classify(resolve(options.cwd ?? '.', name)) ?? { kind: 'missing' }
  const extensions = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : ['']
  let notExecutable: string | undefined
  for (const entry of (env.PATH ?? '').split(delimiter)) {
    const dir = resolve(options.cwd ?? '.', entry || '.')
    if (options.skip?.(dir) || options.skip?.(entry)) continue
    for (const extension of extensions) {
      const found = classify(join(dir, name + extension))
      if (found?.kind === 'found') return found
      if (found) notExecutable ??= found.path
    }
  }
  return notExecutable ? { kind: 'not-executable', path: notExecutable } : { kind: 'missing' }
}

function classify(path: string): Exclude<ProgramLookup, { kind: 'missing' }> | undefined {
  try {
    if (!statSync(path).isFile()) return undefined
  } catch {
    return undefined
  }
  try {
    accessSync(path, constants.X_OK)
    return { kind: 'found', path }
  } catch {
    return { kind: 'not-executable', path }
  }
}

/** The executable a shell would run for `name`, or undefined; `skip` excludes directories (a shim's own). */
export function which(name: string, env: NodeJS.ProcessEnv, skip?: (dir: string) => boolean): string | undefined {
  const found = lookupProgram(name, env, { skip })
  return found.kind === 'found' ? found.path : undefined
}
