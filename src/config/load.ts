import { homedir } from 'node:os'
import { ConfigError } from '../errors.js'
import { listConfigFields, parseEnvValue } from './fields.js'
import { parseConfigJson, readJsonSettings } from './json-file.js'
import { didYouMean } from './suggest.js'
import { userConfigFile } from '../paths.js'
import { findProjectFile, type ProjectFile } from './project-file.js'
import { redirectingHosts } from './project-hosts.js'
import { trustOf } from './trust.js'
import { config as configureZod } from 'zod/mini'
import en from 'zod/v4/locales/en.js'
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
  /** The project config file in use, if any. */
  projectFile?: string
  layers: ConfigLayer[]
  /** One line each, for the person: a project config skipped until trusted. */
  notices: string[]
  /** For --debug: what was ignored as not resilient's (a package.json `"resilient"` value of another shape). */
  debugNotes: string[]
  /** With `tolerant`: the error of the layer that could not be read; the layers before it are the configuration. */
  broken?: ConfigError
}

export interface LoadOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  /** Values from CLI flags; they win over everything. */
  flags?: Partial<Config>
  /** Look for a project config (false for read-only verbs). */
  project?: boolean
  /** Stop at a broken layer instead of throwing: what came before it is returned, with `broken` (`resilient config`). */
  tolerant?: boolean
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

type ProjectLayer = { layer?: ConfigLayer; notice?: string }

/** Parses a project file: package.json's value, JSON here (the common case), YAML and trusted code through cosmiconfig. */
async function parseProjectFile(file: ProjectFile): Promise<unknown> {
  if (file.packageValue !== undefined) return file.packageValue
  if (file.content.trim() === '' && !file.isCode) return {}
  if (file.path.endsWith('.json')) return parseConfigJson(file.content, file.path)
  try {
    // cosmiconfig costs ~50 ms to load: only for the YAML and code forms.
    const { cosmiconfig } = await import('cosmiconfig')
    return (await cosmiconfig('resilient', { searchStrategy: 'none' }).load(file.path))?.config ?? {}
  } catch (error) {
    // cosmiconfig puts the parser's own words (line, column, what was expected) on the lines after the first.
    // Its code frame (`> 2 | ...`, `  | ^`) is left out: one paragraph, not a listing.
    const message = (error as Error).message.split('\n').map(line => line.trim()).filter(line => line && !/^(>\s*)?\d*\s*\|/.test(line) && !/^-*\^$/.test(line)).join(' ')
    // js-yaml's own position, `(4:3)`, as file:line:column.
    const at = /\((\d+):(\d+)\)/.exec(message)
    throw new ConfigError(`${at ? `${file.path}:${at[1]}:${at[2]}: ` : ''}The config file ${file.path} could not be read: ${message}`)
  }
}

/**
 * The project layer, if the user may rely on it: code runs only once trusted (`resilient config trust`), and data
 * that sends installs to hosts of its own choosing is used only once trusted too.
 */
async function projectLayer(file: ProjectFile, env: NodeJS.ProcessEnv, user: Plain | undefined): Promise<ProjectLayer> {
  const trust = () => trustOf(file.path, file.content, env)
  const again = `resilient config trust ${file.path}`
  if (file.isCode && trust() !== 'trusted') {
    return { notice: trust() === 'changed' ? `${file.path} changed since you trusted it and was not loaded; review it, then: ${again}`
      : `${file.path} was not loaded: a project config that is code runs only once you trust it (${again})` }
  }
  const values = await parseProjectFile(file)
  if (!isPlain(values)) throw new ConfigError(`${file.path}: expected an object of settings, got ${Array.isArray(values) ? 'an array' : typeof values}.`)
  const hosts = redirectingHosts(values, user)
  if (hosts.length && trust() !== 'trusted') {
    return { notice: `${file.path} was not used: it sends installs to ${hosts.join(', ')}, outside resilient's mirror catalog and your own config. If you put it there: ${again}` }
  }
  return { layer: { kind: 'project', origin: file.path, values: validated(values, file.path) } }
}

/** Precedence, lowest first: defaults < user config < project config < RESILIENT_* env < CLI flags. */
export async function loadConfig({ cwd, env, flags = {}, project = true, tolerant = false }: LoadOptions): Promise<LoadedConfig> {
  const layers: ConfigLayer[] = []
  let broken: ConfigError | undefined
  // Each layer in turn; with `tolerant`, the first that cannot be read ends the list instead of the command.
  const read = async <T>(step: () => T | Promise<T>): Promise<T | undefined> => {
    if (broken) return undefined
    try {
      return await step()
    } catch (error) {
      if (!tolerant || !(error instanceof ConfigError)) throw error
      broken = error
      return undefined
    }
  }
  const userFile = userConfigFile(env)
  const user = await read(async () => {
    const values = await readJsonSettings(userFile)
    if (values) layers.push({ kind: 'user', origin: userFile, values: validated(values, userFile) })
    return values
  })
  const notices: string[] = []
  const debugNotes: string[] = []
  // Read-only verbs (`pip --version`, `npm ls`) load no project config at all: nothing of a clone runs for them.
  const file = project ? findProjectFile(cwd, env.HOME || homedir(), note => debugNotes.push(note)) : undefined
  const fromProject = (file && await read(() => projectLayer(file, env, user))) || {}
  if (fromProject.notice) notices.push(fromProject.notice)
  if (fromProject.layer) layers.push(fromProject.layer)
  // Walking the schema for variable names costs a parse of the defaults: only when some RESILIENT_* variable is set.
  const fields = Object.keys(env).some(name => name.startsWith('RESILIENT_')) ? listConfigFields().fields : []
  for (const field of fields) {
    const raw = field.env ? env[field.env] : undefined
    if (raw === undefined || raw === '') continue
    const values = field.path.reduceRight<unknown>((inner, part) => ({ [part]: inner }), parseEnvValue(field, raw)) as Plain
    await read(() => layers.push({ kind: 'env', origin: field.env!, values: validated(values, field.env!) }))
  }
  for (const [key, value] of Object.entries(flags)) {
    if (value === undefined) continue
    const flag = (key === 'mirrors' || key === 'relay') && value === false ? `--no-${key}` : `--${key.replace(/[A-Z]/g, c => `-${c.toLowerCase()}`)}`
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
  return { config, files, origins, userConfigFile: userFile, projectFile: fromProject.layer?.origin, layers, notices, debugNotes, ...(broken && { broken }) }
}

/** Checks one layer on its own, so that an error names the file or variable that holds the bad value. */
function validated(values: Plain, where: string): Plain {
  validate(values, where)
  return values
}

export function validate(value: unknown, where: string): Config {
  const result = configSchema.safeParse(value)
  if (result.success) return result.data
  // zod/mini ships no messages of its own ("Invalid input"): English ones, for the error only.
  configureZod(en())
  const issue = configSchema.safeParse(value).error!.issues[0]!
  const path = issue.path.join('.') || '(top level)'
  const detail = issue.code === 'unrecognized_keys'
    ? `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map(k => `"${k}"${didYouMean(k, issue.path)}`).join(', ')}`
    : issue.message
  throw new ConfigError(`${where}: invalid value for "${path}": ${detail}.`,
    'See .resilientrc.example or docs/config.md for every key and its type.')
}
