// Questions asked of the script's own interpreter, never of whichever python is first on PATH: what it has is
// what the script sees (a venv, a pyenv version). Each snippet prints one JSON line and imports nothing but the
// standard library; find_spec of a top-level name locates it without running it, so asking executes none of the
// project's or the missing package's code.

/** What the interpreter says about a top-level name before anything is installed. */
export interface PythonFacts {
  /** The top level can be imported now (then nothing is missing at the top). */
  found: boolean
  /** It is a namespace package (`google` with only google-auth installed): a submodule may still be missing. */
  namespace: boolean
  /** In sys.stdlib_module_names (3.10+) or sys.builtin_module_names; null when this Python cannot tell. */
  stdlib: boolean | null
  version: [number, number]
}

/** Where the interpreter installs: what decides whether `resilient run` may install there at all. */
export interface PythonEnvironment {
  version: [number, number]
  prefix: string
  /** A virtual environment (venv, virtualenv): its own site-packages. */
  venv: boolean
  /** A conda environment other than base (conda-meta without envs/). */
  condaEnv: boolean
  /** PEP 668: the OS manages this Python, and pip refuses to install into it. */
  externallyManaged: boolean
  /** sys.path as the script's interpreter builds it at start-up, with site-packages (for checks run with -S). */
  paths: string[]
}

const FACTS = `
import importlib.util, json, sys
top = sys.argv[1].split('.')[0]
names = getattr(sys, 'stdlib_module_names', None)
try:
    spec = importlib.util.find_spec(top)
except Exception:
    spec = None
namespace = spec is not None and spec.origin in (None, 'namespace') and spec.submodule_search_locations is not None
if names is not None:
    stdlib = top in names or top in sys.builtin_module_names
else:
    stdlib = True if top in sys.builtin_module_names else None
print(json.dumps({"found": spec is not None, "namespace": namespace, "stdlib": stdlib, "version": list(sys.version_info[:2])}))
`

const ENVIRONMENT = `
import json, os, sys, sysconfig
base = getattr(sys, 'real_prefix', None) or getattr(sys, 'base_prefix', sys.prefix)
venv = base != sys.prefix
conda = os.path.isdir(os.path.join(sys.prefix, 'conda-meta')) and not os.path.isdir(os.path.join(sys.prefix, 'envs'))
managed = not venv and os.path.isfile(os.path.join(sysconfig.get_path('stdlib'), 'EXTERNALLY-MANAGED'))
paths = [p for p in sys.path[1:] if p and os.path.isdir(p)]
print(json.dumps({"version": list(sys.version_info[:2]), "prefix": sys.prefix, "venv": venv, "condaEnv": conda,
                  "externallyManaged": managed, "paths": paths}))
`

export type RunPython = (python: string, args: string[]) => Promise<{ exitCode: number; stdout: string }>

/** Runs the interpreter with the script's environment; never throws. */
export const runPython: RunPython = async (python, args) => {
  const { execa } = await import('execa')
  const result = await execa(python, args, { reject: false, timeout: 30_000, stdin: 'ignore' })
  return { exitCode: result.exitCode ?? 1, stdout: String(result.stdout ?? '') }
}

export function lastJsonLine(stdout: string): unknown {
  const line = stdout.trim().split('\n').at(-1) ?? ''
  try {
    return JSON.parse(line)
  } catch {
    return undefined
  }
}

/** Facts about `name`'s top level, or undefined when the interpreter could not answer (Python 2, a broken venv). */
export async function askPythonFacts(python: string, name: string, run: RunPython = runPython): Promise<PythonFacts | undefined> {
  const result = await run(python, ['-c', FACTS, name])
  const facts = result.exitCode === 0 ? lastJsonLine(result.stdout) as PythonFacts | undefined : undefined
  return facts && typeof facts.found === 'boolean' ? facts : undefined
}

/** The interpreter's environment, or undefined when it could not answer. */
export async function askPythonEnvironment(python: string, run: RunPython = runPython): Promise<PythonEnvironment | undefined> {
  const result = await run(python, ['-c', ENVIRONMENT])
  const answer = result.exitCode === 0 ? lastJsonLine(result.stdout) as PythonEnvironment | undefined : undefined
  return answer && Array.isArray(answer.paths) ? answer : undefined
}
