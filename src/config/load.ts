import { existsSync, readFileSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { ConfigError } from '../errors.js'
import { listConfigFields, parseEnvValue } from './fields.js'
import { didYouMean } from './suggest.js'
import { userConfigFile } from './paths.js'
import { configSchema, type Config } from './schema.js'

/** One source of settings; later layers win. */
export interface ConfigLayer {
  kind: 'user' | 'project' | 'env' | 'flag'
  /** A file path, an environment variable name, or a flag. */
  origin: string
  values: Record<string, unknown>
}

export interface LoadedConfig {
  config: Config
  /** Files that contributed, in precedence order (lowest first). */
  files: string[]
  /** Where each setting came from, by dotted path (`pypi.mirrors`): `default`, a file, `RESILIENT_…`, `--flag`. */
  origins: Record<string, string>
  /** The user config file (it may not exist yet): `resilient mirrors use/add/remove` write it. */
  userConfigFile: string
  /** The project config file found by cosmiconfig, if any. */
  projectFile?: string
  layers: ConfigLayer[]
}

export interface LoadOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  /** Values from CLI flags; they win over everything. */
  flags?: Partial<Config>
}

export const PRECEDENCE = 'defaults < user config < project config < RESILIENT_* environment < command-line flags'

type Plain = Record<string, unknown>
const isPlain = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Objects merge key by key; lists and scalars are replaced whole. */
export function mergeDeep(base: Plain, over: Plain): Plain {
  const result: Plain = { ...base }
  for (const [key, value] of Object.entries(over)) result[key] = isPlain(value) && isPlain(result[key]) ? mergeDeep(result[key] as Plain, value) : value
  return result
}

/** Dotted paths of every value set in `values` (lists are one value). */
export function leafPaths(values: Plain, prefix = ''): string[] {
  return Object.entries(values).flatMap(([key, value]) => isPlain(value) ? leafPaths(value, `${prefix}${key}.`) : [`${prefix}${key}`])
}

function readUserConfig(file: string): Plain | undefined {
  if (!existsSync(file)) return undefined
  let parsed: unknown
  try {
    const text = readFileSync(file, 'utf8')
    parsed = text.trim() === '' ? {} : JSON.parse(text)
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message}).`)
  }
  if (!isPlain(parsed)) throw new ConfigError(`${file}: expected an object of settings.`)
  return parsed
}

/**
 * The project config: the nearest cosmiconfig `mirror` file from cwd upwards. The walk stops at a repository root
 * (.git), at the home directory, and before any world-writable directory such as /tmp, whose files anyone could plant.
 */
async function findProjectConfig(cwd: string, home: string): Promise<{ filepath: string; config: unknown } | undefined> {
  let explorer: { search(dir: string): Promise<{ filepath: string; config: unknown; isEmpty?: boolean } | null> } | undefined
  for (let dir = cwd; ; dir = dirname(dir)) {
    try {
      if ((statSync(dir).mode & 0o002) !== 0) return undefined
    } catch {
      return undefined
    }
    let found
    try {
      // cosmiconfig costs ~50 ms to load: only when this directory has a file it would read.
      const candidate = firstConfigCandidate(dir)
      // The common case, a plain .mirrorrc.json, is read here; cosmiconfig handles YAML, JS and TS files.
      if (candidate?.endsWith('.mirrorrc.json')) found = readJsonConfig(candidate)
      else if (candidate) {
        explorer ??= (await import('cosmiconfig')).cosmiconfig('mirror', { searchStrategy: 'none' })
        found = await explorer.search(dir)
      }
    } catch (error) {
      // cosmiconfig puts the parser's own words (line, column, what was expected) on the lines after the first.
      // Its code frame (`> 2 | ...`, `  | ^`) is left out: one paragraph, not a listing.
      const message = (error as Error).message.split('\n').map(line => line.trim()).filter(line => line && !/^(>\s*)?\d*\s*\|/.test(line)).join(' ')
      throw new ConfigError(`The config file could not be read: ${message}`)
    }
    if (found && !found.isEmpty) return found
    if (dir === home || existsSync(join(dir, '.git')) || dirname(dir) === dir) return undefined
  }
}

// cosmiconfig 9's default search places for the module name `mirror` (package.json only with a "mirror" key).
const CANDIDATES = ['.mirrorrc', ...['json', 'yaml', 'yml', 'js', 'ts', 'mjs', 'cjs'].map(ext => `.mirrorrc.${ext}`),
  '.config/mirrorrc', ...['json', 'yaml', 'yml', 'js', 'ts', 'mjs', 'cjs'].map(ext => `.config/mirrorrc.${ext}`),
  ...['js', 'ts', 'mjs', 'cjs'].map(ext => `mirror.config.${ext}`)]

/** The file cosmiconfig would read first in `dir` (its order: package.json "mirror", then CANDIDATES), if any. */
function firstConfigCandidate(dir: string): string | undefined {
  try {
    if (readFileSync(join(dir, 'package.json'), 'utf8').includes('"mirror"')) return join(dir, 'package.json')
  } catch {
    // no package.json here
  }
  return CANDIDATES.map(name => join(dir, name)).find(path => existsSync(path))
}

function readJsonConfig(filepath: string): { filepath: string; config: unknown; isEmpty?: boolean } {
  const text = readFileSync(filepath, 'utf8')
  if (text.trim() === '') return { filepath, config: undefined, isEmpty: true }
  try {
    return { filepath, config: JSON.parse(text) }
  } catch (error) {
    throw new Error(`JSON Error in ${filepath}: ${(error as Error).message}`)
  }
}

/** Precedence, lowest first: defaults < user config < project config < RESILIENT_* env < CLI flags. */
export async function loadConfig({ cwd, env, flags = {} }: LoadOptions): Promise<LoadedConfig> {
  const layers: ConfigLayer[] = []
  const userFile = userConfigFile(env)
  const user = readUserConfig(userFile)
  if (user) layers.push({ kind: 'user', origin: userFile, values: validated(user, userFile) })
  const project = await findProjectConfig(cwd, env.HOME || homedir())
  if (project) {
    if (!isPlain(project.config)) {
      throw new ConfigError(`${project.filepath}: expected an object of settings, got ${Array.isArray(project.config) ? 'an array' : typeof project.config}.`)
    }
    layers.push({ kind: 'project', origin: project.filepath, values: validated(project.config, project.filepath) })
  }
  for (const field of listConfigFields().fields) {
    const raw = field.env ? env[field.env] : undefined
    if (raw === undefined || raw === '') continue
    const values = field.path.reduceRight<unknown>((inner, part) => ({ [part]: inner }), parseEnvValue(field, raw)) as Plain
    layers.push({ kind: 'env', origin: field.env!, values: validated(values, field.env!) })
  }
  for (const [key, value] of Object.entries(flags)) {
    if (value === undefined) continue
    const flag = key === 'mirrors' && value === false ? '--no-mirrors' : `--${key.replace(/[A-Z]/g, c => `-${c.toLowerCase()}`)}`
    layers.push({ kind: 'flag', origin: flag, values: { [key]: value } })
  }

  const origins: Record<string, string> = {}
  let merged: Plain = {}
  for (const layer of layers) {
    merged = mergeDeep(merged, layer.values)
    for (const path of leafPaths(layer.values)) origins[path] = layer.origin
  }
  const files = layers.filter(layer => layer.kind === 'user' || layer.kind === 'project').map(layer => layer.origin)
  const config = validate(merged, files.at(-1) ?? 'the configuration')
  for (const path of leafPaths(config as Plain)) origins[path] ??= 'default'
  return { config, files, origins, userConfigFile: userFile, projectFile: project?.filepath, layers }
}

/** Checks one layer on its own, so that an error names the file or variable that holds the bad value. */
function validated(values: Plain, where: string): Plain {
  validate(values, where)
  return values
}

export function validate(value: unknown, where: string): Config {
  const result = configSchema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]!
  const path = issue.path.join('.') || '(top level)'
  const detail = issue.code === 'unrecognized_keys'
    ? `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map(k => `"${k}"${didYouMean(k, issue.path)}`).join(', ')}`
    : issue.message
  throw new ConfigError(`${where}: invalid value for "${path}": ${detail}.`,
    'See .mirrorrc.example or docs/config.md for every key and its type.')
}
