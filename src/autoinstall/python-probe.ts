// Questions asked of the script's own interpreter, never of whichever python is first on PATH: what it has is
// what the script sees (a venv, a pyenv version). Each snippet prints one JSON line and imports nothing but the
// standard library, so asking executes none of the project's or the missing package's code.

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

// packages_distributions() (3.10+) maps top-level names to the distributions that provide them; before 3.10 the
// same answer comes from each distribution's file list.
const VERIFY = `
import importlib, importlib.util, json, sys
import importlib.metadata as md
module = sys.argv[1]
top = module.split('.')[0]
importlib.invalidate_caches()
try:
    found = importlib.util.find_spec(module) is not None
except Exception:
    found = False
if hasattr(md, 'packages_distributions'):
    owners = md.packages_distributions().get(top, [])
else:
    owners = [d.metadata['Name'] for d in md.distributions()
              if any(str(f).split('/')[0] in (top, top + '.py') for f in (d.files or []))]
print(json.dumps({"found": found, "owners": owners}))
`

export type RunPython = (python: string, args: string[]) => Promise<{ exitCode: number; stdout: string }>

/** Runs the interpreter with the script's environment; never throws. */
export const runPython: RunPython = async (python, args) => {
  const { execa } = await import('execa')
  const result = await execa(python, args, { reject: false, timeout: 30_000, stdin: 'ignore' })
  return { exitCode: result.exitCode ?? 1, stdout: String(result.stdout ?? '') }
}

function lastJsonLine(stdout: string): unknown {
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

/** After an install: `module` resolves, and its top level now belongs to `project` (PEP 503 names compared). */
export async function verifyPythonImport(python: string, module: string, project: string, run: RunPython = runPython): Promise<{ ok: boolean; owners: string[] }> {
  const result = await run(python, ['-c', VERIFY, module])
  const answer = result.exitCode === 0 ? lastJsonLine(result.stdout) as { found?: boolean; owners?: string[] } | undefined : undefined
  const owners = answer?.owners ?? []
  const normalize = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-')
  return { ok: Boolean(answer?.found) && owners.some(owner => normalize(owner) === normalize(project)), owners }
}
