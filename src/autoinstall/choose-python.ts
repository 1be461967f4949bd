import { lookupPipreqs } from './pipreqs-map.js'
import { lookupPythonAllowlist, PYTHON_NAMESPACES } from './python-allowlist.js'
import type { PythonFacts } from './python-probe.js'
import { pythonNameProblem } from './python-special.js'
import { describeRefusal, refusedPythonImport, refusedPythonProject } from './refused.js'
import type { Candidate, MissingModule } from './types.js'

export interface PythonContext {
  /** The script's interpreter's answer; undefined when it could not be asked. */
  facts: PythonFacts | undefined
  /** A file or directory named like the top level beside the script or in the working directory. */
  localShadow?: string
}

// PEP 508 project names.
const PROJECT_NAME = /^([A-Z0-9]|[A-Z0-9][A-Z0-9._-]*[A-Z0-9])$/i

function refused(reason: string, hint?: string): Candidate {
  return { tier: 'refused', reason, hint }
}

// Azure groups whose projects take a third part: azure.storage.blob → azure-storage-blob, azure.mgmt.compute.
const AZURE_GROUPS = new Set(['storage', 'mgmt', 'keyvault'])

/** `google.cloud.X` → google-cloud-X, `azure.X` → azure-X: the projects' own naming rule, never reviewed per name. */
function namespaceProject(name: string): { project: string; module: string } | undefined {
  const parts = name.split('.')
  const take = (count: number) => parts.length >= count ? { project: parts.slice(0, count).join('-'), module: parts.slice(0, count).join('.') } : undefined
  if (parts[0] === 'google' && parts[1] === 'cloud') return take(3)
  if (parts[0] === 'azure') return take(AZURE_GROUPS.has(parts[1] ?? '') ? 3 : 2)
  return undefined
}

/** Which project would provide a missing Python module, and how far it may be trusted. Pure: the facts are given. */
export function choosePythonPackage(missing: MissingModule, { facts, localShadow }: PythonContext): Candidate {
  const { name, reported } = missing
  const top = name.split('.')[0]!
  const problem = pythonNameProblem(top)
  const allowlisted = lookupPythonAllowlist(name)
  // distutils is both removed from the stdlib and in the allowlist (setuptools provides it): the allowlist wins.
  if (problem && !allowlisted) return refused(problem.reason, problem.hint)
  if (!facts) return refused('resilient could not ask the script\'s Python about the module (too old, or it did not start).', 'Install the package yourself.')
  if (facts.stdlib && !allowlisted) return refused(`"${top}" belongs to the standard library, so no package should provide it.`, 'This Python may be incomplete, or a different Python runs the script.')
  if (localShadow) return refused(`${localShadow} is named like the module, so this looks like a path problem, not a missing package.`, 'Run from the project root, or set PYTHONPATH.')
  if (facts.found && !facts.namespace) {
    return reported.includes('.')
      ? refused(`"${top}" is installed but its submodule "${reported}" is missing: a partial install or a version mismatch.`, `Reinstall or upgrade the package that provides ${top}.`)
      : refused(`"${top}" can be imported by this Python now: the script runs another interpreter or changes sys.path.`)
  }
  if (allowlisted) {
    const dummy = refusedPythonProject(allowlisted.package)
    if (dummy) return refused(describeRefusal(allowlisted.package, dummy).reason)
    return { tier: 'allowlist', package: allowlisted.package, why: `import ${allowlisted.key} → ${allowlisted.package} (reviewed: ${allowlisted.why})`, verifyModule: allowlisted.verify ?? allowlisted.key }
  }
  const squat = refusedPythonImport(top)
  if (squat) return refused(describeRefusal(top, squat).reason, describeRefusal(top, squat).hint)
  if (PYTHON_NAMESPACES.has(top)) {
    const rule = namespaceProject(name)
    if (!rule) return refused(`"${name}" is a namespace shared by many projects: the name alone does not say which one is missing.`, 'Find the project in the library\'s documentation and install it yourself.')
    return { tier: 'proposed', package: rule.project, why: `import ${rule.module} → ${rule.project} (by the ${top} naming rule; not reviewed)`, verifyModule: rule.module }
  }
  const dummy = refusedPythonProject(top)
  if (dummy) return refused(describeRefusal(top, dummy).reason, describeRefusal(top, dummy).hint)
  if (!PROJECT_NAME.test(top)) return refused(`"${top}" is not a valid package name.`)
  const known = lookupPipreqs(top)
  if (known) {
    const rank = known.rank ? `rank ${known.rank} by downloads on PyPI` : 'outside PyPI\'s 15,000 most downloaded'
    return { tier: 'proposed', package: known.project, why: `import ${top} → ${known.project} (from pipreqs' mapping, not reviewed by resilient: ${rank}, last release ${known.lastRelease})`, verifyModule: top }
  }
  return { tier: 'proposed', package: top, why: `import ${top} → ${top} (the import name itself; not in resilient's reviewed list, so the project of that name may be unrelated or a squat)`, verifyModule: top }
}
