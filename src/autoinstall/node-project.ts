import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, parse } from 'node:path'

/** The package managers `resilient run` installs with; yarn-berry is Yarn 2+ (its `add` takes other flags). */
export type NodeManager = 'npm' | 'pnpm' | 'yarn' | 'yarn-berry' | 'bun'

export interface NodeProject {
  /** The nearest directory with a package.json, or the script's own directory when there is none. */
  dir: string
  manager: NodeManager
  /** How the manager was chosen, for the person: `the lockfile in /p`, `"packageManager" in /p/package.json`. */
  managerOrigin: string
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  } catch {
    return undefined
  }
}

function* upwards(start: string): Generator<string> {
  for (let dir = start; ; dir = dirname(dir)) {
    yield dir
    if (dir === parse(dir).root) return
  }
}

function managerFromField(field: unknown): NodeManager | undefined {
  const match = typeof field === 'string' ? /^(npm|pnpm|yarn|bun)@(\d+)/.exec(field) : null
  if (!match) return undefined
  return match[1] === 'yarn' && Number(match[2]) >= 2 ? 'yarn-berry' : match[1] as NodeManager
}

function managerFromLockfile(dir: string): NodeManager | undefined {
  if (existsSync(join(dir, 'pnpm-lock.yaml'))) return 'pnpm'
  if (existsSync(join(dir, 'bun.lockb')) || existsSync(join(dir, 'bun.lock'))) return 'bun'
  if (existsSync(join(dir, 'yarn.lock'))) {
    // Berry's lockfile is YAML with a __metadata block; Yarn 1's is its own format without one.
    const berry = existsSync(join(dir, '.yarnrc.yml')) || /^__metadata:/m.test(readFileSync(join(dir, 'yarn.lock'), 'utf8'))
    return berry ? 'yarn-berry' : 'yarn'
  }
  if (existsSync(join(dir, 'package-lock.json')) || existsSync(join(dir, 'npm-shrinkwrap.json'))) return 'npm'
  return undefined
}

/** The project the script belongs to and its package manager: packageManager field, then lockfiles upwards, then npm. */
export function findNodeProject(startDir: string): NodeProject {
  const dir = [...upwards(startDir)].find(candidate => existsSync(join(candidate, 'package.json'))) ?? startDir
  for (const candidate of upwards(dir)) {
    const field = managerFromField(readJson(join(candidate, 'package.json'))?.packageManager)
    if (field) return { dir, manager: field, managerOrigin: `"packageManager" in ${join(candidate, 'package.json')}` }
    const lock = managerFromLockfile(candidate)
    if (lock) return { dir, manager: lock, managerOrigin: `the lockfile in ${candidate}` }
  }
  return { dir, manager: 'npm', managerOrigin: 'no lockfile, so the default' }
}

/** Where `name` is installed as Node would find it from `fromDir` (node_modules upwards), if anywhere. */
export function installedPackage(name: string, fromDir: string): string | undefined {
  for (const dir of upwards(fromDir)) {
    const manifest = join(dir, 'node_modules', name, 'package.json')
    if (existsSync(manifest)) return readJson(manifest)?.name === name ? dirname(manifest) : undefined
  }
  return undefined
}

/** Path-alias prefixes from tsconfig.json / jsconfig.json `compilerOptions.paths` (`@app/*` → `@app/`). */
export function aliasPrefixes(projectDir: string): string[] {
  for (const file of ['tsconfig.json', 'jsconfig.json']) {
    let text: string
    try {
      text = readFileSync(join(projectDir, file), 'utf8')
    } catch {
      continue
    }
    // tsconfig allows comments and trailing commas; strip the common forms (a string holding `//` is rare here).
    const json = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '').replace(/,(\s*[}\]])/g, '$1')
    try {
      const paths = (JSON.parse(json) as { compilerOptions?: { paths?: Record<string, unknown> } }).compilerOptions?.paths ?? {}
      return Object.keys(paths).map(pattern => pattern.replace(/\*$/, ''))
    } catch {
      return []
    }
  }
  return []
}
