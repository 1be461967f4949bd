import { readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { parseToml } from '../tools/config/lazy-parsers.js'
import { poetryToPep440 } from './poetry-constraint.js'
import { normalizeProject } from './refused.js'
import type { Declaration } from './types.js'

// PEP 508: the project name at the start of a requirement.
const NAME = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)/
// PEP 723's reference regex for `# /// script` blocks (https://peps.python.org/pep-0723/#reference-implementation).
const SCRIPT_BLOCK = /^# \/\/\/ script\s*$\n((?:^#(?: .*)?$\n)+)^# \/\/\/\s*$/m

type Found = Map<string, Declaration>

function add(found: Found, requirement: string, origin: string): void {
  const name = NAME.exec(requirement)?.[1]
  if (!name || found.has(normalizeProject(name))) return
  const direct = /\s@\s|^\s*(\.|\/|[a-z+]+:\/\/)/i.test(requirement)
  found.set(normalizeProject(name), direct
    ? { origin, unusable: `it is declared as a direct reference (${requirement.trim()}), not a version from the index` }
    : { requirement: requirement.trim(), origin })
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

/** PEP 723 inline metadata of the script itself: the first place the script's own requirements are written. */
function fromInlineMetadata(found: Found, script: string): void {
  const block = SCRIPT_BLOCK.exec(read(script) ?? '')?.[1]
  if (!block) return
  try {
    const toml = parseToml(block.split('\n').map(line => line.replace(/^# ?/, '')).join('\n')) as { dependencies?: unknown }
    for (const requirement of Array.isArray(toml.dependencies) ? toml.dependencies : []) if (typeof requirement === 'string') add(found, requirement, `${basename(script)} (inline script metadata)`)
  } catch {
    // invalid TOML: the script's runner would refuse it too; nothing is declared here.
  }
}

/** requirements*.txt at the root and in requirements/: pip's format, one requirement a line, options skipped. */
function fromRequirementFiles(found: Found, root: string): void {
  const files = [...list(root).filter(name => /^requirements.*\.(txt|in)$/.test(name)).map(name => join(root, name)),
    ...list(join(root, 'requirements')).filter(name => /\.(txt|in)$/.test(name)).map(name => join(root, 'requirements', name))]
  for (const file of files) {
    const lines = (read(file) ?? '').replace(/\\\r?\n/g, ' ').split(/\r?\n/)
    lines.forEach((line, index) => {
      const text = line.replace(/(^|\s)#.*$/, '').trim()
      if (!text || text.startsWith('-')) return
      const origin = `${file.slice(root.length + 1)}:${index + 1}`
      const name = NAME.exec(text)?.[1]
      // A hash-pinned requirement installs only with its hash (pip's hash-checking mode): never without it.
      if (name && /\s--hash[=\s]/.test(text) && !found.has(normalizeProject(name))) found.set(normalizeProject(name), { origin, unusable: 'it is pinned with hashes: install it with pip install -r so that pip checks them' })
      else add(found, text.replace(/\s--?\w[\w-]*(=\S+)?/g, ''), origin)
    })
  }
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}

type Table = Record<string, unknown>

/** pyproject.toml: PEP 621 [project], PEP 735 [dependency-groups], Poetry's [tool.poetry] tables. */
function fromPyproject(found: Found, root: string): void {
  const text = read(join(root, 'pyproject.toml'))
  if (text === undefined) return
  let toml: Table
  try {
    toml = parseToml(text)
  } catch {
    return
  }
  const project = (toml.project ?? {}) as Table
  const strings = (value: unknown) => Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
  for (const requirement of strings(project.dependencies)) add(found, requirement, 'pyproject.toml [project.dependencies]')
  for (const [extra, requirements] of Object.entries((project['optional-dependencies'] ?? {}) as Table)) for (const requirement of strings(requirements)) add(found, requirement, `pyproject.toml [project.optional-dependencies.${extra}]`)
  for (const [group, requirements] of Object.entries((toml['dependency-groups'] ?? {}) as Table)) for (const requirement of strings(requirements)) add(found, requirement, `pyproject.toml [dependency-groups.${group}]`)
  const poetry = ((toml.tool ?? {}) as Table).poetry as Table | undefined
  if (!poetry) return
  const tables: [string, unknown][] = [['tool.poetry.dependencies', poetry.dependencies], ['tool.poetry.dev-dependencies', poetry['dev-dependencies']],
    ...Object.entries((poetry.group ?? {}) as Table).map(([group, table]) => [`tool.poetry.group.${group}.dependencies`, (table as Table).dependencies] as [string, unknown])]
  for (const [where, table] of tables) for (const [name, value] of Object.entries((table ?? {}) as Table)) addPoetry(found, name, value, `pyproject.toml [${where}]`)
}

function addPoetry(found: Found, name: string, value: unknown, origin: string): void {
  if (name === 'python' || found.has(normalizeProject(name))) return
  const table = (typeof value === 'object' && value !== null ? value : { version: value }) as Table
  if (table.git || table.path || table.url) return void found.set(normalizeProject(name), { origin, unusable: 'it is declared from git, a path or a URL, not from the index' })
  const specifier = poetryToPep440(typeof table.version === 'string' ? table.version : '*')
  if (specifier === undefined) return void found.set(normalizeProject(name), { origin, unusable: `pip cannot express Poetry's constraint "${String(table.version)}"` })
  const extras = Array.isArray(table.extras) && table.extras.length ? `[${table.extras.join(',')}]` : ''
  add(found, `${name}${extras}${specifier}`, origin)
}

/** Everything the script and its project declare, by normalised project name; the script's own metadata first. */
export function findPythonDeclarations(script: string | undefined, root: string): Map<string, Declaration> {
  const found: Found = new Map()
  if (script) fromInlineMetadata(found, script)
  fromRequirementFiles(found, root)
  fromPyproject(found, root)
  return found
}
