import { normalizeProject } from './refused.js'
import type { Wanted } from './types.js'

/** What one install changed, from the package lists before and after it: the truth, whatever the tool printed. */
export interface InstallChanges {
  /** Name → version of what was not there before: this run's to remove again, and only these. */
  added: Record<string, string>
  /** Name → [before, after] of what was there and now has another version (an upgrade pulled in by a dependency). */
  changed: Record<string, [string, string]>
}

export function diffInstalled(before: Record<string, string>, after: Record<string, string>): InstallChanges {
  const old = new Map(Object.entries(before).map(([name, version]) => [normalizeProject(name), version]))
  const added: Record<string, string> = {}
  const changed: Record<string, [string, string]> = {}
  for (const [name, version] of Object.entries(after)) {
    const previous = old.get(normalizeProject(name))
    if (previous === undefined) added[name] = version
    else if (previous !== version) changed[name] = [previous, version]
  }
  return { added, changed }
}

/** The version this run installed for `wanted`, or undefined when it was there already (pip: "already satisfied"). */
export function addedVersion(changes: InstallChanges, wanted: Wanted): string | undefined {
  const key = normalizeProject(wanted.candidate.package)
  return Object.entries(changes.added).find(([name]) => normalizeProject(name) === key)?.[1]
}

/** The sentences that say what really happened: installed, already there, dependencies, other versions. */
export function describeChanges(changes: InstallChanges, wanted: Wanted[]): string[] {
  const requested = new Set(wanted.map(item => normalizeProject(item.candidate.package)))
  const installed = wanted.filter(item => addedVersion(changes, item)).map(item => `${item.candidate.package} ${addedVersion(changes, item)} (for "${item.module.name}")`)
  const already = wanted.filter(item => !addedVersion(changes, item)).map(item => item.candidate.package)
  const dependencies = Object.entries(changes.added).filter(([name]) => !requested.has(normalizeProject(name))).map(([name, version]) => `${name} ${version}`)
  const other = Object.entries(changes.changed).map(([name, [from, to]]) => `${name} ${from} → ${to}`)
  return [
    ...(installed.length ? [`installed ${installed.join(', ')}`] : []),
    ...(already.length ? [`nothing installed for ${already.join(', ')}: already installed`] : []),
    ...(dependencies.length ? [`with the dependencies ${dependencies.join(', ')}`] : []),
    ...(other.length ? [`the installer also changed ${other.join(', ')} (left as it is)`] : []),
  ]
}
