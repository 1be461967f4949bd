import { closeSync, openSync, readSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { which } from '../tools/which.js'
import type { ScriptEcosystem } from './types.js'

/** Where the script's imports come from, so that a missing package is installed exactly there. */
export type ScriptEnvironment =
  | { ecosystem: 'python'; /** Absolute path of the interpreter. */ python: string; origin: string }
  | { ecosystem: 'node'; origin: string }
  | { ecosystem: undefined; reason: string }

const PYTHON = /^(python|pypy)(\d+(\.\d+)?)?(\.exe)?$/
const NODE = /^(node|nodejs|bun|deno|npx|pnpx|bunx|npm|pnpm|yarn|tsx|ts-node)(\.exe|\.cmd)?$/
// Runners that pick an environment themselves: the one they use cannot be told from the command.
const RUNNERS = /^(uv|uvx|poetry|pipenv|pdm|hatch|conda|mamba|micromamba|pixi|rye|tox|nox)$/

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
export async function resolveScriptEnvironment(argv: string[], env: NodeJS.ProcessEnv, resolveProgram?: ResolveProgram): Promise<ScriptEnvironment> {
  const command = argv[0] ?? ''
  const name = basename(command)
  if (RUNNERS.test(name)) return { ecosystem: undefined, reason: `\`${name}\` chooses the environment itself; run the script with that environment's interpreter instead (.venv/bin/python app.py)` }
  const found = which(command, env)
  if (!found) return { ecosystem: undefined, reason: `${command} was not found on PATH` }
  // A relative path (`.venv/bin/python`) is made absolute: messages and the record must name one interpreter.
  let program: string = resolve(found)
  for (let hop = 0; hop < 2; hop++) {
    const direct = ecosystemOf(program)
    if (direct === 'python') return { ecosystem: 'python', python: program, origin: hop ? `the program behind the pyenv shim ${command}` : 'the command' }
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
  return { ecosystem: undefined, reason: `resilient cannot tell which Python or Node runs ${command}` }
}
