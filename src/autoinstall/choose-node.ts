import { NODE_ALLOWLIST } from './node-allowlist.js'
import { describeRefusal, refusedNodePackage } from './refused.js'
import type { Candidate, MissingModule } from './types.js'

export interface NodeContext {
  /** Where the package is already installed as seen from the importing file, if it is. */
  installedAt?: string
  /** Path-alias prefixes of the project (tsconfig `paths`). */
  aliases: string[]
}

/** Which npm package would provide a missing import, and how far it may be trusted. Pure: the facts are given. */
export function chooseNodePackage(missing: MissingModule, { installedAt, aliases }: NodeContext): Candidate {
  const { name, reported } = missing
  const alias = aliases.find(prefix => prefix !== '' && (reported === prefix || reported.startsWith(prefix)))
  if (alias !== undefined) return { tier: 'refused', reason: `"${reported}" matches the path alias "${alias}*" of tsconfig.json, so it is a file of the project, not a package.` }
  const squat = refusedNodePackage(name)
  if (squat) return { tier: 'refused', ...describeRefusal(name, squat) }
  if (installedAt) {
    return { tier: 'refused', reason: `"${name}" is installed (${installedAt}) but has no "${reported}": a wrong subpath or a version mismatch.`, hint: `Check the import against the installed version of ${name}.` }
  }
  if (NODE_ALLOWLIST.has(name)) return { tier: 'allowlist', package: name, why: `${name} (reviewed: a widely used package under its own name)`, verifyModule: name }
  return { tier: 'proposed', package: name, why: `${name} (not in resilient's reviewed list: the package of that name may be unrelated, a typo or a squat)`, verifyModule: name }
}
