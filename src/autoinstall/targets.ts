import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { formatCommand } from '../retry/format.js'
import { choosePythonPackage } from './choose-python.js'
import { chooseNodePackage } from './choose-node.js'
import type { Installable } from './consent.js'
import { detectNodeMissing } from './detect-node.js'
import { detectPythonMissing } from './detect-python.js'
import { nodeInstall, nodeUninstall, pipInstall, pipUninstall } from './install-command.js'
import { aliasPrefixes, findNodeProject, installedPackage, type NodeProject } from './node-project.js'
import { askPythonFacts, runPython, verifyPythonImport, type RunPython } from './python-probe.js'
import type { InstallPlan } from './repair-loop.js'
import type { Candidate, Detection, MissingModule, ScriptEcosystem } from './types.js'

/** One environment a script runs in: how its failures read, what provides a module, how to install and check it. */
export interface Target {
  ecosystem: ScriptEcosystem
  detect(output: string): Detection | undefined
  choose(missing: MissingModule): Promise<Candidate>
  plan(candidate: Installable): InstallPlan
  verify(candidate: Installable, missing: MissingModule): Promise<{ ok: boolean; detail?: string }>
  uninstall(candidate: Installable): InstallPlan
}

function plan(argv: string[], environment: string, cwd?: string): InstallPlan {
  return { argv, command: formatCommand({ argv, env: {} }), environment, cwd }
}

/**
 * A module or package named like `top` where the script's own modules live: a path problem, not a package. A bare
 * directory does not count (a `yaml/` folder of data files beside a script that imports PyYAML is common).
 */
function localShadow(top: string, dirs: string[]): string | undefined {
  for (const dir of dirs) for (const path of [join(dir, `${top}.py`), join(dir, top, '__init__.py')]) if (existsSync(path)) return path
  return undefined
}

/** The script's Python: facts and checks come from that interpreter, the install goes through its `-m pip`. */
export function pythonTarget(python: string, cwd: string, run: RunPython = runPython): Target {
  return {
    ecosystem: 'python',
    detect: detectPythonMissing,
    async choose(missing) {
      const top = missing.name.split('.')[0]!
      const dirs = [cwd, ...(missing.importer ? [dirname(resolve(cwd, missing.importer))] : [])]
      return choosePythonPackage(missing, { facts: await askPythonFacts(python, missing.name, run), localShadow: localShadow(top, dirs) })
    },
    plan: candidate => plan(pipInstall(python, candidate.package), python),
    async verify(candidate) {
      const { ok, owners } = await verifyPythonImport(python, candidate.verifyModule, candidate.package, run)
      return { ok, detail: owners.length ? `it comes from ${owners.join(', ')}` : undefined }
    },
    uninstall: candidate => plan(pipUninstall(python, candidate.package), python),
  }
}

/** The script's Node project: the nearest package.json above the importing file, with the manager its lockfile names. */
export function nodeTarget(cwd: string): Target {
  // choose() finds the project; plan, verify and uninstall act on the same one.
  const seen = new Map<string, { project: NodeProject; fromDir: string }>()
  const where = (name: string) => seen.get(name) ?? { project: findNodeProject(cwd), fromDir: cwd }
  const describe = (project: NodeProject) => `${project.dir} (${project.manager}: ${project.managerOrigin})`
  return {
    ecosystem: 'node',
    detect: detectNodeMissing,
    async choose(missing) {
      const fromDir = missing.importer ? dirname(missing.importer) : cwd
      const project = findNodeProject(fromDir)
      seen.set(missing.name, { project, fromDir })
      return chooseNodePackage(missing, { installedAt: installedPackage(missing.name, fromDir), aliases: aliasPrefixes(project.dir) })
    },
    plan(candidate) {
      const { project } = where(candidate.package)
      return plan(nodeInstall(project.manager, candidate.package), describe(project), project.dir)
    },
    async verify(candidate) {
      const { fromDir } = where(candidate.package)
      return installedPackage(candidate.package, fromDir) ? { ok: true } : { ok: false, detail: `Node does not find it from ${fromDir}` }
    },
    uninstall(candidate) {
      const { project } = where(candidate.package)
      return plan(nodeUninstall(project.manager, candidate.package), describe(project), project.dir)
    },
  }
}
