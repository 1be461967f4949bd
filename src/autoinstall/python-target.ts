import { existsSync, realpathSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { choosePythonPackage } from './choose-python.js'
import { findPythonDeclarations } from './declared-python.js'
import { declaredPythonSource, type DeclaredSource } from './declared-python-source.js'
import { detectPythonMissing } from './detect-python.js'
import { finalError } from './final-error.js'
import { pipInstall } from './install-command.js'
import { directoriesUpTo, findProjectRoot } from './project-root.js'
import { listDistributions, pipUninstallWithoutSite, verifyProvides } from './python-installed.js'
import { askPythonEnvironment, askPythonFacts, runPython, type PythonEnvironment, type RunPython } from './python-probe.js'
import { normalizeProject } from './refused.js'
import { scanPythonImports } from './scan-python.js'
import { distinctPackages, installPlan, type Target } from './target.js'
import type { Choice, MissingModule } from './types.js'

/**
 * A module or package named like `top` where the script's own modules live (beside the importing file and up to
 * the project root, and the working directory): a path problem, not a package. A bare directory does not count
 * (a `yaml/` folder of data files beside a script that imports PyYAML is common).
 */
function localShadow(top: string, dirs: string[]): string | undefined {
  for (const dir of dirs) for (const path of [join(dir, `${top}.py`), join(dir, top, '__init__.py')]) if (existsSync(path)) return path
  return undefined
}

function samePath(a: string, b: string): boolean {
  const real = (path: string) => { try { return realpathSync(path) } catch { return resolve(path) } }
  return real(a) === real(b)
}

/** The script's Python: facts and checks come from that interpreter, the install goes through its `-m pip`. */
export function pythonTarget(startPython: string, cwd: string, options: { home?: string; run?: RunPython } = {}): Target {
  const run = options.run ?? runPython
  let python = startPython
  // Where the project says its packages come from: the install uses it, never a public index instead.
  let declaredSource: DeclaredSource | undefined
  let environment: Promise<PythonEnvironment | undefined> | undefined
  const facts = () => (environment ??= askPythonEnvironment(python, run))
  const paths = async () => (await facts())?.paths ?? []

  async function choose(module: MissingModule, shadowDirs: string[], declared: ReturnType<typeof findPythonDeclarations>): Promise<Choice> {
    const top = module.name.split('.')[0]!
    const candidate = choosePythonPackage(module, { facts: await askPythonFacts(python, module.name, run), localShadow: localShadow(top, shadowDirs) })
    return { module, candidate, declared: candidate.tier === 'refused' ? undefined : declared.get(normalizeProject(candidate.package)) }
  }

  return {
    ecosystem: 'python',
    async failure(outcome, output) {
      const detection = finalError(outcome, output, detectPythonMissing)
      const own = await facts()
      if (detection?.kind === 'missing' && outcome.kind === 'uncaught' && outcome.prefix && own && !samePath(outcome.prefix, own.prefix)) {
        return { kind: 'not-installable', refusal: { reason: `the failing import ran in another Python (${outcome.prefix}), not in ${python}, where resilient would install.`, evidence: detection.module.evidence } }
      }
      return detection
    },
    async gather(missing, entry) {
      const importerDir = missing.importer ? dirname(resolve(cwd, missing.importer)) : entry ? dirname(entry) : cwd
      const root = findProjectRoot(importerDir, options.home)
      const declared = findPythonDeclarations(entry, root)
      declaredSource = declaredPythonSource(root)
      const shadowDirs = [...new Set([cwd, ...directoriesUpTo(importerDir, root)])]
      const first = await choose(missing, shadowDirs, declared)
      const files = [entry, missing.importer && resolve(cwd, missing.importer)].filter((file): file is string => Boolean(file))
      const scanned = first.candidate.tier === 'refused' ? [] : await scanPythonImports(python, files, [...new Set([entry ? dirname(entry) : cwd, root])], run)
      const others: Choice[] = []
      for (const found of scanned.slice(0, 20)) {
        const module: MissingModule = { ecosystem: 'python', reported: found.name, name: found.name, importer: found.file, evidence: [found.line] }
        others.push(await choose(module, [...new Set([cwd, ...directoriesUpTo(dirname(found.file), root)])], declared))
      }
      return distinctPackages([first, ...others])
    },
    async place() {
      const own = await facts()
      if (!own || own.venv || own.condaEnv) return { kind: 'own' }
      return { kind: 'global', prefix: own.prefix, externallyManaged: own.externallyManaged }
    },
    plan: wanted => installPlan(pipInstall(python, wanted.map(item => item.requirement)), python, undefined, declaredSource?.env),
    async snapshot() {
      return (await facts()) ? listDistributions(python, await paths(), run) : undefined
    },
    async verify(wanted) {
      const { ok, owners } = await verifyProvides(python, await paths(), wanted.candidate.package, wanted.candidate.verifyModule, run)
      return { ok, detail: owners.length ? `it comes from ${owners.join(', ')}` : undefined }
    },
    async rollback(added) {
      if (!added.length) return { ok: true }
      const [program, ...args] = pipUninstallWithoutSite(python, await paths(), added)
      const result = await run(program!, args)
      return { ok: result.exitCode === 0, command: `${python} -m pip uninstall --yes ${added.join(' ')} (without site.py)` }
    },
    async useVirtualEnvironment(dir) {
      const venvPython = join(dir, 'bin', 'python')
      if (!existsSync(join(dir, 'pyvenv.cfg'))) {
        // --system-site-packages: the script still sees what the global Python had, plus what is installed here.
        const created = await run(python, ['-m', 'venv', '--system-site-packages', dir])
        if (created.exitCode !== 0 || !existsSync(venvPython)) return { ok: false, reason: `${python} -m venv ${dir} failed${created.stdout ? `: ${created.stdout.trim()}` : ''}` }
      }
      python = venvPython
      environment = undefined
      return { ok: true, python }
    },
  }
}
