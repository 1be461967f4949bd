import { closeSync, existsSync, openSync, readSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { which } from '../tools/argv/which.js'
import { runnerHint } from './runner-hint.js'
import type { ScriptEcosystem } from './types.js'

/** Where the script's imports come from, so that a missing package is installed exactly there. */
export type ScriptEnvironment =
  | {
    ecosystem: 'python'
    /** Absolute path of the interpreter. */
    python: string
    origin: string
    /** Where in argv the interpreter itself is named (`python3 app.py`, `env X=1 python3 ...`); absent for a shebang. */
    interpreterAt?: number
  }
  | { ecosystem: 'node'; origin: string }
  | { ecosystem: undefined; reason: string; hint?: string }

const PYTHON = /^(python|pypy)(\d+(\.\d+)?)?(\.exe)?$/
const NODE = /^(node|nodejs|bun|deno|npx|pnpx|bunx|npm|pnpm|yarn|tsx|ts-node)(\.exe|\.cmd)?$/

export type ResolveProgram = (name: string) => Promise<string | undefined>

function head(file: string): string {
  let fd: number | undefined
  try {
    fd = openSync(file, 'r')
    const buffer = Buffer.alloc(1024)
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8')
  } catch {
    return ''
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** The interpreter a script's shebang names: `#!/v/bin/python`, `#!/usr/bin/env python3`, pip's long-path form. */
export function shebangInterpreter(text: string, env: NodeJS.ProcessEnv): string | undefined {
  const [first = '', second = ''] = text.split('\n')
  // pip writes this when the interpreter path is too long or has spaces (distlib's ScriptMaker).
  const longForm = /^'''exec' "([^"]+)" "\$0" "\$@"/.exec(second)
  if (/^#!\s*\/bin\/sh\b/.test(first) && longForm) return longForm[1]
  const shebang = /^#!\s*(\S+)(?:\s+(.*))?$/.exec(first)
  if (!shebang) return undefined
  const [, program, rest = ''] = shebang
  if (basename(program!) !== 'env') return program
  const name = rest.split(/\s+/).find(word => word && !word.startsWith('-') && !word.includes('='))
  return name ? which(name, env) ?? name : undefined
}

function ecosystemOf(interpreter: string): ScriptEcosystem | undefined {
  const name = basename(interpreter)
  if (PYTHON.test(name)) return 'python'
  if (NODE.test(name)) return 'node'
  return undefined
}

/**
 * The environment `argv` runs in: its interpreter when it names one (`python3 app.py`, `.venv/bin/python -m x`),
 * else the interpreter of the program's shebang (`pytest` → the venv python its pip install wrote). A pyenv shim
 * is followed to the real program with `resolveProgram` (`pyenv which`).
 */
export async function resolveScriptEnvironment(command: string[], environment: NodeJS.ProcessEnv, resolveProgram?: ResolveProgram): Promise<ScriptEnvironment> {
  const start = skipEnv(command, environment)
  if ('reason' in start) return { ecosystem: undefined, reason: start.reason }
  const { at, env } = start
  const argv = command.slice(at)
  const runner = runnerHint(argv)
  if (runner) return { ecosystem: undefined, ...runner }
  const command0 = argv[0] ?? ''
  const found = which(command0, env)
  if (!found) return { ecosystem: undefined, reason: `${command0} was not found on PATH` }
  // A relative path (`.venv/bin/python`) is made absolute: messages and the record must name one interpreter.
  let program: string = resolve(found)
  for (let hop = 0; hop < 2; hop++) {
    const direct = ecosystemOf(program)
    if (direct === 'python') return { ecosystem: 'python', python: program, origin: hop ? `the program behind the pyenv shim ${command0}` : 'the command', interpreterAt: at }
    if (direct === 'node') return { ecosystem: 'node', origin: 'the command' }
    const text = head(program)
    const interpreter = shebangInterpreter(text, env)
    const kind = interpreter && ecosystemOf(interpreter)
    if (kind === 'python') return { ecosystem: 'python', python: which(interpreter!, env) ?? interpreter!, origin: `the shebang of ${program}` }
    if (kind === 'node') return { ecosystem: 'node', origin: `the shebang of ${program}` }
    // A pyenv shim is a bash script that execs `pyenv exec <name>`: ask pyenv which program that is.
    const real: string | undefined = /\bpyenv" exec\b|\bpyenv exec\b/.test(text) && resolveProgram ? await resolveProgram(basename(program)) : undefined
    if (!real) break
    program = real
  }
  return { ecosystem: undefined, reason: `resilient cannot tell which Python or Node runs ${command0}` }
}

/**
 * `env [NAME=value...] [-u NAME] command`: env(1) execs the command with those changes, so the command is what
 * counts, looked up on the PATH it will see. Other env options (-i, -S, -C) change too much to follow.
 */
function skipEnv(argv: string[], env: NodeJS.ProcessEnv): { at: number; env: NodeJS.ProcessEnv } | { reason: string } {
  if (basename(argv[0] ?? '') !== 'env') return { at: 0, env }
  const changed = { ...env }
  let at = 1
  for (; at < argv.length; at++) {
    const word = argv[at]!
    const assignment = /^([^=-][^=]*)=(.*)$/s.exec(word)
    if (assignment) changed[assignment[1]!] = assignment[2]
    else if (word === '-u' || word === '--unset') delete changed[argv[++at] ?? '']
    else if (word === '--') continue
    else if (word.startsWith('-')) return { reason: `resilient cannot tell which program \`env ${word}\` runs, so it cannot tell the environment` }
    else break
  }
  return { at, env: changed }
}

const SCRIPT_FILE = /\.(py|pyw|js|mjs|cjs|ts|mts|cts|jsx|tsx)$/
// Options after which the code is not a file: `python -c`, `python -m`, `node -e`/`-p`.
const INLINE_CODE = new Set(['-c', '-m', '-e', '-p', '--eval', '--print'])

/** The script file the command runs (`python app.py`, `npx tsx x.ts`, `pytest test_a.py`): where a static scan starts. */
export function findScriptFile(argv: string[], cwd: string): string | undefined {
  for (const arg of argv.slice(1)) {
    if (INLINE_CODE.has(arg)) return undefined
    if (!SCRIPT_FILE.test(arg)) continue
    const path = resolve(cwd, arg)
    if (existsSync(path)) return path
  }
  return undefined
}
