import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Declaration } from './types.js'

const FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const

// A range npm resolves from the registry: semver ranges, dist-tags. Aliases (`npm:other@1`), files, links,
// workspaces, git and URLs install something other than `name` from the index: never from a registry install.
const REGISTRY_RANGE = /^[\w\s.*^~<>=|-]*$/

/** What package.json declares for each package (the first field that names it), as `name@range`. */
export function findNodeDeclarations(projectDir: string): Map<string, Declaration> {
  const found = new Map<string, Declaration>()
  let manifest: Record<string, unknown>
  try {
    manifest = JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')) as Record<string, unknown>
  } catch {
    return found
  }
  for (const field of FIELDS) {
    for (const [name, range] of Object.entries((manifest[field] ?? {}) as Record<string, unknown>)) {
      if (found.has(name) || typeof range !== 'string') continue
      const origin = `package.json ${field}`
      found.set(name, REGISTRY_RANGE.test(range)
        ? { requirement: range.trim() ? `${name}@${range.trim()}` : name, origin }
        : { origin, unusable: `it is declared as "${range}", not a version range of the registry` })
    }
  }
  return found
}
