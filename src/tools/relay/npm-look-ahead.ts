import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { dependenciesOf, registryPackage, type LookAheadSeeds } from './npm-dependencies.js'
import { globPattern } from '../config/npm-config-files.js'

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

/**
 * The folders under `root` that `patterns` name (npm's workspaces globs, read as npm-config-files reads them), up to
 * a depth that covers `**`; undefined when a pattern is beyond what is read.
 */
function workspaceFolders(root: string, patterns: readonly string[]): string[] | undefined {
  const globs = patterns.map(globPattern)
  if (globs.some(glob => !glob)) return undefined
  const found: string[] = []
  const walk = (dir: string, path: string, depth: number) => {
    let entries: import('node:fs').Dirent[]
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name.startsWith('.')) continue
      const relative = path ? `${path}/${entry.name}` : entry.name
      if (globs.some(glob => glob!.test(relative))) found.push(join(dir, entry.name))
      if (depth < 6) walk(join(dir, entry.name), relative, depth + 1)
    }
  }
  walk(root, '', 0)
  return found
}

/**
 * The names the project provides itself, its workspaces' (npm resolves a dependency on a workspace's name
 * to the workspace, never asking a registry). Undefined when a `workspaces` pattern is beyond what is read here.
 */
function ownNames(projectDir: string, root: Record<string, unknown> | undefined): string[] | undefined {
  const listed = root?.workspaces
  const patterns = Array.isArray(listed) ? listed : Array.isArray((listed as { packages?: unknown } | undefined)?.packages) ? (listed as { packages: unknown[] }).packages : []
  const folders = workspaceFolders(projectDir, patterns.filter((pattern): pattern is string => typeof pattern === 'string'))
  return folders?.flatMap(folder => {
    const name = readJson(join(folder, 'package.json'))?.name
    return typeof name === 'string' ? [name] : []
  })
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
