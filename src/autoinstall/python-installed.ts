import { lastJsonLine, runPython, type RunPython } from './python-probe.js'

// What is installed, asked after an install without running what was installed. `python -S` skips site.py, so no
// `.pth` file runs: a wheel's .pth executes code at every interpreter start-up (site.addpackage), and a package
// under check must not get that chance. The site directories the script sees (asked before the install) are put
// on sys.path by hand instead.

/** Sets sys.path from argv[1] (JSON) and reads the rest of argv; shared by every snippet below. */
const PRELUDE = `
import json, sys
sys.path.extend(p for p in json.loads(sys.argv[1]) if p not in sys.path)
args = sys.argv[2:]
`

const DISTRIBUTIONS = `${PRELUDE}
import importlib.metadata as md
found = {}
for dist in md.distributions():
    name = dist.metadata['Name']
    if name and name not in found:
        found[name] = dist.version
print(json.dumps(found))
`

// The distribution's own file list (RECORD) must hold the module, and the module must be found where the
// distribution lives: the name really comes from it, not from a local file or another project. find_spec is asked
// of the top level only, and below it of the path finder, so no package's __init__ runs.
const PROVIDES = `${PRELUDE}
import importlib.machinery, importlib.util, os, re
import importlib.metadata as md
project, module = args
norm = lambda n: re.sub(r'[-_.]+', '-', n).lower()
try:
    dist = md.distribution(project)
except md.PackageNotFoundError:
    dist = next((d for d in md.distributions() if norm(d.metadata['Name'] or '') == norm(project)), None)
files = [str(f).replace(os.sep, '/') for f in (dist.files or [])] if dist else []
path = module.replace('.', '/')
listed = any(f == path + '/__init__.py' or f == path + '.py' or f.startswith(path + '/') or
             (f.startswith(path + '.') and f.rsplit('.', 1)[-1] in ('so', 'pyd')) for f in files)
parts = module.split('.')
spec = importlib.util.find_spec(parts[0])
for part in parts[1:]:
    if spec is None or not spec.submodule_search_locations:
        spec = None
        break
    spec = importlib.machinery.PathFinder.find_spec(spec.name + '.' + part, list(spec.submodule_search_locations))
root = os.path.realpath(str(dist.locate_file(''))) if dist else None
places = [spec.origin] if spec is not None and spec.origin not in (None, 'namespace') else list(spec.submodule_search_locations or []) if spec else []
inside = root is not None and any(os.path.realpath(p).startswith(root + os.sep) for p in places)
ok = bool(listed and inside)
# Who does provide it, for the message: only on failure (it reads every distribution's file list).
owners = [] if ok else [d.metadata['Name'] for d in md.distributions() if any(str(f).replace(os.sep, '/').split('/')[0] in (parts[0], parts[0] + '.py') for f in (d.files or []))]
print(json.dumps({"ok": ok, "owners": sorted(set(n for n in owners if n))}))
`

// pip, run from its own files without site.py (and so without .pth files), to remove what this run added.
const UNINSTALL = `${PRELUDE}
import runpy
sys.argv = ['pip', 'uninstall', '--yes'] + args
runpy.run_module('pip', run_name='__main__', alter_sys=True)
`

/** Name → version of every installed distribution, or undefined when the interpreter could not answer. */
export async function listDistributions(python: string, paths: string[], run: RunPython = runPython): Promise<Record<string, string> | undefined> {
  const result = await run(python, ['-S', '-c', DISTRIBUTIONS, JSON.stringify(paths)])
  const answer = result.exitCode === 0 ? lastJsonLine(result.stdout) : undefined
  return answer && typeof answer === 'object' ? answer as Record<string, string> : undefined
}

/** `module` (a dotted import name, or a path such as `setuptools/_distutils`) comes from `project` now. */
export async function verifyProvides(python: string, paths: string[], project: string, module: string, run: RunPython = runPython): Promise<{ ok: boolean; owners: string[] }> {
  const result = await run(python, ['-S', '-c', PROVIDES, JSON.stringify(paths), project, module.replace(/\//g, '.')])
  const answer = result.exitCode === 0 ? lastJsonLine(result.stdout) as { ok?: boolean; owners?: string[] } | undefined : undefined
  return { ok: Boolean(answer?.ok), owners: answer?.owners ?? [] }
}

/** The command that uninstalls `projects` without starting the interpreter's site machinery. */
export function pipUninstallWithoutSite(python: string, paths: string[], projects: string[]): string[] {
  return [python, '-S', '-c', UNINSTALL, JSON.stringify(paths), ...projects]
}
