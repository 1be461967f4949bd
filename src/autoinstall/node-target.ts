import { dirname } from 'node:path'
import { chooseNodePackage } from './choose-node.js'
import { findNodeDeclarations } from './declared-node.js'
import { detectNodeMissing } from './detect-node.js'
import { finalError } from './final-error.js'
import { nodeInstall, nodeRemove, prunesUndeclared } from './install-command.js'
import { aliasPrefixes, findNodeProject, installedPackage, type NodeProject } from './node-project.js'
import { listNodeModules, removeNodeModules, undeclaredPackages } from './node-modules.js'
import { scanNodeImports } from './scan-node.js'
import { distinctPackages, installPlan, type RunTool, type Target } from './target.js'
import type { Choice, MissingModule } from './types.js'

/** The script's Node project: the nearest package.json above the importing file, with the manager its lockfile names. */
export function nodeTarget(cwd: string, runTool: RunTool): Target {
  // gather() finds the project from the failing file; everything after acts on that one.
  let project: NodeProject = findNodeProject(cwd)
  let fromDir = cwd
  const describe = () => `${project.dir} (${project.manager}: ${project.managerOrigin})`

  function choose(module: MissingModule, declared: ReturnType<typeof findNodeDeclarations>): Choice {
    const from = module.importer ? dirname(module.importer) : fromDir
    const candidate = chooseNodePackage(module, { installedAt: installedPackage(module.name, from), aliases: aliasPrefixes(project.dir) })
    return { module, candidate, declared: candidate.tier === 'refused' ? undefined : declared.get(candidate.package) }
  }

  return {
    ecosystem: 'node',
    failure: async (outcome, output) => finalError(outcome, output, detectNodeMissing),
    async gather(missing, entry) {
      fromDir = missing.importer ? dirname(missing.importer) : entry ? dirname(entry) : cwd
      project = findNodeProject(fromDir)
      const declared = findNodeDeclarations(project.dir)
      const first = choose(missing, declared)
      if (first.candidate.tier === 'refused') return [first]
      const files = [entry, missing.importer].filter((file): file is string => Boolean(file))
      const others = (await scanNodeImports(files)).slice(0, 20).map(found => choose({ ecosystem: 'node', reported: found.name, name: found.name, importer: found.file, evidence: [found.line] }, declared))
      return distinctPackages([first, ...others])
    },
    place: async () => ({ kind: 'own' }),
    plan(wanted) {
      const names = wanted.map(item => item.candidate.package)
      // npm would prune what earlier --no-save installs put there: name them again, at the versions installed.
      const keep = prunesUndeclared(project.manager) ? undeclaredPackages(project.dir).filter(spec => !names.includes(spec.slice(0, spec.lastIndexOf('@')))) : []
      return installPlan(nodeInstall(project.manager, [...wanted.map(item => item.requirement), ...keep]), describe(), project.dir)
    },
    snapshot: async () => listNodeModules(project.dir),
    async verify(wanted) {
      const name = wanted.candidate.package
      const from = wanted.module.importer ? dirname(wanted.module.importer) : fromDir
      return installedPackage(name, from) ? { ok: true } : { ok: false, detail: `Node does not find it from ${from}` }
    },
    async rollback(added, requested) {
      if (!added.length) return { ok: true }
      // pnpm, yarn and bun wrote the requested packages into package.json: their own remove takes them out again.
      const remove = nodeRemove(project.manager, added.filter(name => requested.includes(name)))
      if (!remove) {
        removeNodeModules(project.dir, added)
        return { ok: true, command: `removed ${added.map(name => `node_modules/${name}`).join(', ')} from ${project.dir}` }
      }
      return { ok: (await runTool(remove, project.dir)) === 0, command: remove.join(' ') }
    },
  }
}
