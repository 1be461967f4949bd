import { closeSync, existsSync, openSync, readSync, realpathSync } from 'node:fs'
import { dirname, isAbsolute, join } from 'node:path'
import { resolvePythonShim } from './python-shims.js'

/** Where pip's site config lives: `<sys.prefix>/pip.conf` of the interpreter that runs pip (pip utils/appdirs.py). */
export interface SitePrefix {
  /** sys.prefix, when known for certain without starting Python. */
  prefix?: string
  /** Why it is not known: pip is then asked before anything leaves the index it uses (tools/source/pip-source.ts). */
  uncertain?: string
  /** Where it may be, when uncertain. */
  guesses: string[]
}

const NATIVE = [Buffer.from('\x7fELF', 'latin1'), Buffer.from([0xcf, 0xfa, 0xed, 0xfe]), Buffer.from([0xfe, 0xed, 0xfa, 0xcf]), Buffer.from([0xca, 0xfe, 0xba, 0xbe]), Buffer.from('MZ')]

function head(file: string): Buffer | undefined {
  let descriptor: number | undefined
  try {
    descriptor = openSync(file, 'r')
    const buffer = Buffer.alloc(256)
    return buffer.subarray(0, readSync(descriptor, buffer, 0, 256, 0))
  } catch {
    return undefined
  } finally {
    if (descriptor !== undefined) closeSync(descriptor)
  }
}

const PYTHON = /(^|\/)(python|pypy)[0-9.]*(\.exe)?$/i

/**
 * The Python a pip script or `python -m pip` really starts: itself when native, else the interpreter its `#!` line
 * names (or the `'''exec' <python>` line pip writes under a `#!/bin/sh` when the path is too long), when that is a
 * native Python. A shell script that picks one at run time (a pyenv or asdf shim) gives none.
 */
function interpreterOf(executable: string): string | undefined {
  const isNative = (bytes: Buffer | undefined) => Boolean(bytes && NATIVE.some(magic => bytes.subarray(0, magic.length).equals(magic)))
  const bytes = head(executable)
  if (isNative(bytes)) return executable
  const text = bytes?.toString('latin1') ?? ''
  const named = /^'''exec' (?:"([^"]+)"|(\S+))/m.exec(text) ?? /^#!\s*(\S+)/.exec(text)
  const interpreter = named?.[1] ?? named?.[2]
  return interpreter && isAbsolute(interpreter) && PYTHON.test(interpreter) && isNative(head(interpreter)) ? interpreter : undefined
}

/**
 * `<sys.prefix>`, whose pip.conf pip reads as its site config (pip utils/appdirs.py), known without starting Python
 * only when the interpreter is a native program found from the command: a virtual environment's (the folder above
 * bin holding pyvenv.cfg, as CPython's getpath finds it) or a base installation's (the folder above its real bin).
 * A pyenv or asdf shim is followed through its version files to the pip or python it runs, when `where` says where
 * the command runs (src/tools/config/python-shims.ts). Behind another shim or launcher, `PYTHONHOME` or an unknown
 * executable, `uncertain` says why, and pip is asked.
 */
export function sitePrefix(env: NodeJS.ProcessEnv, executable: string | undefined, where?: { cwd: string; home: string }): SitePrefix {
  const uncertain = (why: string): SitePrefix => ({ uncertain: why, guesses: guessedPrefixes(env, executable) })
  if (env.PYTHONHOME) return uncertain('PYTHONHOME is set, which moves the interpreter\'s prefix')
  if (!executable) return uncertain('the pip that runs is not known')
  const shim = where && !interpreterOf(executable) ? resolvePythonShim(executable, env, where.cwd, where.home) : undefined
  if (shim && 'uncertain' in shim) return uncertain(`${executable} is a version manager's shim and ${shim.uncertain}, so the interpreter's own pip.conf is unknown`)
  const interpreter = interpreterOf(shim?.executable ?? executable)
  if (!interpreter) return uncertain(`${executable} starts its Python at run time (a shim or a launcher script), so the interpreter's own pip.conf is unknown`)
  for (const dir of [dirname(interpreter), dirname(dirname(interpreter))]) if (existsSync(join(dir, 'pyvenv.cfg'))) return { prefix: dir, guesses: [] }
  try {
    return { prefix: dirname(dirname(realpathSync(interpreter))), guesses: [] }
  } catch {
    return uncertain(`${interpreter} could not be resolved`)
  }
}

/**
 * The prefixes pip may read a site config from when the interpreter is not known for sure: `VIRTUAL_ENV`, the folder
 * above the script's bin, and the real prefix of the script and of its `#!` interpreter. All are read (a private
 * index in any makes the plan keep to it) until pip itself says which (tools/source/pip-source.ts).
 */
function guessedPrefixes(env: NodeJS.ProcessEnv, executable: string | undefined): string[] {
  const prefixes = env.VIRTUAL_ENV ? [env.VIRTUAL_ENV] : []
  if (!executable) return prefixes
  prefixes.push(dirname(dirname(executable)))
  const line = /^#!\s*(\S+)/.exec(head(executable)?.toString('latin1') ?? '')?.[1]
  const shebang = line && !/\/(env|sh|bash)$/.test(line) ? line : undefined
  for (const path of [executable, shebang].filter((item): item is string => Boolean(item))) {
    try {
      prefixes.push(dirname(dirname(realpathSync(path))))
    } catch {
      // not there: nothing to read
    }
  }
  return [...new Set(prefixes)]
}
