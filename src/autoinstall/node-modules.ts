import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { findNodeDeclarations } from './declared-node.js'

// The packages at the top of a project's node_modules, read from their package.json files: what was there before
// an install, so that afterwards resilient knows what it added, keeps what npm would prune, and can remove only
// its own additions.

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  } catch {
    return undefined
  }
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

/** Name → version of every package directly under `<projectDir>/node_modules` (scoped ones included). */
export function listNodeModules(projectDir: string): Record<string, string> {
  const root = join(projectDir, 'node_modules')
  const found: Record<string, string> = {}
  const names = entries(root).sort().flatMap(name => name.startsWith('@') ? entries(join(root, name)).map(inner => `${name}/${inner}`) : name.startsWith('.') ? [] : [name])
  for (const name of names) {
    const manifest = readJson(join(root, name, 'package.json'))
    if (manifest && typeof manifest.version === 'string') found[name] = manifest.version
  }
  return found
}

/**
 * Installed packages that package.json does not declare and no declared package depends on: what an earlier
 * `npm install --no-save` added (resilient's, or the person's own). npm prunes them on the next install, so they are
 * named again, at their installed version, in the same command (`name@version`).
 */
export function undeclaredPackages(projectDir: string, installed: Record<string, string> = listNodeModules(projectDir)): string[] {
  const reached = new Set<string>()
  const queue = [...findNodeDeclarations(projectDir).keys()]
  while (queue.length) {
    const name = queue.shift()!
    if (reached.has(name)) continue
    reached.add(name)
    const manifest = readJson(join(projectDir, 'node_modules', name, 'package.json')) ?? {}
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) queue.push(...Object.keys((manifest[field] ?? {}) as object))
  }
  return Object.entries(installed).filter(([name]) => !reached.has(name)).map(([name, version]) => `${name}@${version}`)
}

/**
 * Removes the packages this run added to node_modules, and npm's hidden lockfile, which would otherwise still list
 * them (npm rebuilds it from the tree: arborist's loadActual).
 */
export function removeNodeModules(projectDir: string, names: string[]): void {
  for (const name of names) rmSync(join(projectDir, 'node_modules', name), { recursive: true, force: true })
  const bin = join(projectDir, 'node_modules', '.bin')
  // A command link into a removed package now points nowhere: existsSync follows the link.
  for (const link of entries(bin)) if (!existsSync(join(bin, link))) rmSync(join(bin, link), { force: true })
  if (names.length) rmSync(join(projectDir, 'node_modules', '.package-lock.json'), { force: true })
}
