import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { TOOLS } from '../tools/index.js'
import type { ToolAdapter } from '../tools/types.js'
import { upwards } from '../files/upwards.js'

type Tools = typeof TOOLS
/** The package managers `resilient run` installs with: the adapters that declare a Node project (ToolAdapter.nodeProject). */
export type NodeManager = { [name in keyof Tools]: Tools[name] extends { nodeProject: object } ? name : never }[keyof Tools]

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

const projectOf = (manager: NodeManager): NonNullable<ToolAdapter['nodeProject']> => TOOLS[manager].nodeProject
// Precedence when a folder holds several lockfiles, or package.json names a tool that two adapters share (yarn).
const NODE_MANAGERS = (Object.keys(TOOLS) as (keyof Tools)[]).filter((name): name is NodeManager => 'nodeProject' in TOOLS[name])
  .sort((a, b) => projectOf(a).precedence - projectOf(b).precedence)
const DEFAULT_MANAGER = NODE_MANAGERS.find(manager => projectOf(manager).isDefault)!

function managerFromField(field: unknown): NodeManager | undefined {
  const match = typeof field === 'string' ? /^([\w-]+)@(\d+)/.exec(field) : null
  if (!match) return undefined
  const major = Number(match[2])
  return NODE_MANAGERS.find(manager => {
    const { name, majors } = projectOf(manager).packageManager
    return name === match[1] && major >= (majors?.from ?? 0) && major < (majors?.below ?? Infinity)
  })
}

function managerFromLockfile(dir: string): NodeManager | undefined {
  return NODE_MANAGERS.find(manager => {
    const project = projectOf(manager)
    return project.lockfiles.some(name => existsSync(join(dir, name)) && (project.ownsLockfile?.(dir, join(dir, name)) ?? true))
  })
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
  return { dir, manager: DEFAULT_MANAGER, managerOrigin: 'no lockfile, so the default' }
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
