import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { dependenciesOf, registryPackage, type LookAheadSeeds } from './npm-dependencies.js'

// A manifest or lockfile bigger than this is not read for look-ahead: it is a hint, never worth a slow start.
const MAX_FILE_BYTES = 32 * 2 ** 20

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    if (statSync(file).size > MAX_FILE_BYTES) return undefined
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'))
    return value && typeof value === 'object' ? value as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}

/** The nearest package.json from `cwd` up to `root`, as npm finds the package a command runs in. */
function nearestManifest(cwd: string, root: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json')
    if (readJson(file)) return file
    if (dir === root || dirname(dir) === dir) return undefined
  }
}

/** The names a package-lock.json (v2/v3 `packages`, v1 `dependencies`) or npm-shrinkwrap.json has locked. */
function lockedNames(lock: Record<string, unknown> | undefined): string[] {
  if (!lock) return []
  const names: string[] = []
  const packages = lock.packages as Record<string, { name?: unknown }> | undefined
  if (packages && typeof packages === 'object') {
    for (const [path, entry] of Object.entries(packages)) {
      const at = path.lastIndexOf('node_modules/')
      if (at >= 0) names.push(path.slice(at + 'node_modules/'.length))
      if (typeof entry?.name === 'string') names.push(entry.name)
    }
  }
  const walk = (deps: unknown) => {
    if (!deps || typeof deps !== 'object') return
    for (const [name, entry] of Object.entries(deps as Record<string, { dependencies?: unknown }>)) {
      names.push(name)
      walk(entry?.dependencies)
    }
  }
  walk(lock.dependencies)
  return names
}

/** The package names of `npm install <spec>...`: registry names and aliases; paths, URLs and git specs give none. */
function namesOfSpecs(specs: readonly string[]): string[] {
  return specs.flatMap(spec => {
    const match = /^((?:@[^/@]+\/)?[^/@]+)(?:@(.*))?$/.exec(spec)
    const name = match && registryPackage(match[1]!, match[2] ?? 'latest')
    return name ? [name] : []
  })
}

/** The package.json files under `dir` that one `workspaces` entry names: `packages/a`, `packages/*`, `packages/**`. */
function workspaceManifests(root: string, pattern: string): string[] | undefined {
  const deep = pattern.endsWith('/**')
  const base = pattern.replace(/\/\*\*?$/, '')
  // Any other glob is not expanded here: the caller then fetches nothing ahead rather than guess the project's own names.
  if (/[*?[\]{}!]/.test(base)) return undefined
  const start = resolve(root, base)
  if (base === pattern) return [join(start, 'package.json')]
  const found: string[] = []
  const walk = (dir: string, depth: number) => {
    let entries: import('node:fs').Dirent[]
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name.startsWith('.')) continue
      found.push(join(dir, entry.name, 'package.json'))
      if (deep && depth < 8) walk(join(dir, entry.name), depth + 1)
    }
  }
  walk(start, 0)
  return found
}

/**
 * The names the project provides itself, its workspaces' (npm resolves a dependency on a workspace's name
 * to the workspace, never asking a registry). Undefined when a `workspaces` pattern is beyond what is read here.
 */
function ownNames(projectDir: string, root: Record<string, unknown> | undefined): string[] | undefined {
  const listed = root?.workspaces
  const patterns = Array.isArray(listed) ? listed : Array.isArray((listed as { packages?: unknown } | undefined)?.packages) ? (listed as { packages: unknown[] }).packages : []
  const names: string[] = []
  for (const pattern of patterns) {
    if (typeof pattern !== 'string') continue
    const manifests = workspaceManifests(projectDir, pattern)
    if (!manifests) return undefined
    for (const file of manifests) {
      const name = readJson(file)?.name
      if (typeof name === 'string') names.push(name)
    }
  }
  return names
}

/**
 * What the relay fetches ahead of `npm install` in `projectDir` (src/relay/look-ahead.ts): the packages named on
 * the command line and in the project's package.json (the root's and the one the command runs in), minus those its
 * lockfile or node_modules has already, and those the project provides itself (its workspaces); those are never
 * fetched ahead, whoever depends on them. With workspaces beyond what is read here, nothing is fetched ahead.
 */
export function npmLookAhead(projectDir: string | undefined, cwd: string, specs: readonly string[]): LookAheadSeeds {
  const seeds = new Set(namesOfSpecs(specs))
  // A global install has no project: what the command line names is all there is.
  if (!projectDir) return { seeds: [...seeds], locked: [] }
  // A name the project provides itself (a workspace) is never asked of a registry: not even its name may leave.
  const own = ownNames(projectDir, readJson(join(projectDir, 'package.json')))
  if (!own) return { seeds: [], locked: [] }
  const manifests = new Set([join(projectDir, 'package.json'), nearestManifest(cwd, projectDir)].filter((file): file is string => Boolean(file)))
  for (const file of manifests) {
    const manifest = readJson(file)
    if (manifest) for (const name of dependenciesOf(manifest, manifest.devDependencies)) seeds.add(name)
  }
  // npm starts from what is installed (node_modules/.package-lock.json) as much as from its lockfile.
  const lockfile = readJson(join(projectDir, 'npm-shrinkwrap.json')) ?? readJson(join(projectDir, 'package-lock.json'))
  const locked = new Set([...lockedNames(lockfile), ...lockedNames(readJson(join(projectDir, 'node_modules', '.package-lock.json')))])
  for (const name of own) locked.add(name)
  return { seeds: [...seeds].filter(name => !locked.has(name)), locked: [...locked] }
}
