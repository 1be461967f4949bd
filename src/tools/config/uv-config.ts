import { join, resolve } from 'node:path'
import { UV_REQUIREMENT_FLAGS } from '../argv/python-index-flags.js'
import { readRequirementIndexOptions, requirementFilesIndex } from './requirement-files.js'
import { envFlag, nearestFile, readTomlFile, stringAt, tablesAt, valueAt } from './project-files.js'
import type { ToolContext } from '../types.js'
import { findUvOptions, UV_OPTIONS, type UvCommand } from '../argv/uv-options.js'

/**
 * Where uv's default index comes from, in uv's own order (uv-settings combine.rs, index_url.rs `default_index`):
 * the first index marked default wins, and `--default-index`/`UV_DEFAULT_INDEX` come before the config files'
 * `[[index]] default = true`, which come before `--index-url`/`UV_INDEX_URL`/`index-url`.
 * Additional indexes (`--index`, `[[index]]` without `default`) are not reported: uv's first-index strategy asks
 * them before the default one, so putting a mirror in the default's place never sends their packages elsewhere.
 */
export interface UvDefaultIndex {
  url: string
  origin: string
  /** `default-index`: persisted by `uv add`; `index-url`: the legacy option that is not; `none`: `--no-index`. */
  kind: 'default-index' | 'index-url' | 'none'
}

interface ConfigFile { path: string; data: Record<string, unknown>; prefix: string[] }

/** The config files uv reads, highest precedence first (uv-settings lib.rs `find`). */
function configFiles({ cwd, env, home }: ToolContext, own: readonly string[]): ConfigFile[] {
  const file = (path: string, prefix: string[] = []): ConfigFile[] => {
    const data = readTomlFile(path)
    return data ? [{ path, data, prefix }] : []
  }
  const explicit = findUvOptions(own, UV_OPTIONS.configFile).at(-1)?.value ?? env.UV_CONFIG_FILE
  if (explicit) return file(resolve(cwd, explicit))
  if (findUvOptions(own, UV_OPTIONS.noConfig).length || envFlag(env, 'UV_NO_CONFIG')) return []
  const start = resolve(cwd, findUvOptions(own, UV_OPTIONS.directory).at(-1)?.value ?? env.UV_PROJECT ?? '.')
  // A pyproject.toml counts only with a [tool.uv] table; uv.toml beats it in the same directory.
  const project = nearestFile(start, ['uv.toml', 'pyproject.toml'], path => !path.endsWith('pyproject.toml') || valueAt(readTomlFile(path), 'tool', 'uv') !== undefined)
  const projectFiles = project ? file(project, project.endsWith('pyproject.toml') ? ['tool', 'uv'] : []) : []
  const userDir = env.XDG_CONFIG_HOME || join(home, '.config')
  const systemDirs = (env.XDG_CONFIG_DIRS || '/etc/xdg').split(':').filter(Boolean)
  const system = [...systemDirs.map(dir => join(dir, 'uv', 'uv.toml')), '/etc/uv/uv.toml'].flatMap(path => file(path)).slice(0, 1)
  return [...projectFiles, ...file(join(userDir, 'uv', 'uv.toml')), ...system]
}

function fromConfig(files: ConfigFile[], pipCommand: boolean): UvDefaultIndex | undefined {
  for (const { path, data, prefix } of files) {
    const marked = tablesAt(data, ...prefix, 'index').find(index => index.default === true && typeof index.url === 'string')
    if (marked) return { url: String(marked.url), origin: `${path} [[index]] default = true`, kind: 'default-index' }
  }
  for (const { path, data, prefix } of files) {
    const sections = pipCommand ? [[...prefix, 'pip'], prefix] : [prefix]
    for (const section of sections) {
      if (valueAt(data, ...section, 'no-index') === true) return { url: 'none', origin: `${path} no-index`, kind: 'none' }
      const url = stringAt(data, ...section, 'index-url')
      if (url) return { url, origin: `${path} ${[...section, 'index-url'].join('.')}`, kind: 'index-url' }
    }
  }
  return undefined
}

/**
 * uv's index strategy and whether any index besides the default is named, from the command line, the environment
 * and the config files (`index-strategy`; `[[index]]` without `default`, `extra-index-url`, `find-links`), in uv's
 * order: with an `unsafe-*` strategy uv merges every index's versions, so a mirror's page could sit beside a private one.
 */
export function findUvIndexMerging(context: ToolContext, command: UvCommand): { strategy?: string; origin?: string; extra: boolean } {
  const { own } = command
  const { env } = context
  const files = configFiles(context, own)
  const sections = ({ prefix }: ConfigFile) => command.verb.startsWith('pip ') ? [[...prefix, 'pip'], prefix] : [prefix]
  const flag = findUvOptions(own, UV_OPTIONS.indexStrategy).at(-1)?.value
  const fromFiles = files.flatMap(file => sections(file).map(section => ({ value: stringAt(file.data, ...section, 'index-strategy'), origin: `${file.path} ${[...section, 'index-strategy'].join('.')}` })))
    .find(({ value }) => value)
  const strategy = flag ? { value: flag, origin: '--index-strategy' } : env.UV_INDEX_STRATEGY ? { value: env.UV_INDEX_STRATEGY, origin: 'UV_INDEX_STRATEGY' } : fromFiles
  const extraInFiles = files.some(file => tablesAt(file.data, ...file.prefix, 'index').some(index => index.default !== true)
    || sections(file).some(section => valueAt(file.data, ...section, 'extra-index-url') !== undefined || valueAt(file.data, ...section, 'find-links') !== undefined))
  const extra = findUvOptions(own, UV_OPTIONS.extraIndexes).length > 0 || Boolean(env.UV_INDEX || env.UV_EXTRA_INDEX_URL || env.UV_FIND_LINKS) || extraInFiles
  return { ...(strategy?.value && { strategy: strategy.value, origin: strategy.origin }), extra }
}

/** Requirement files given to `uv pip` may name an index (`--index-url` lines): the user's choice too. */
function fromRequirementFiles(own: readonly string[], cwd: string): UvDefaultIndex | undefined {
  const chosen = requirementFilesIndex(findUvOptions(own, UV_OPTIONS.requirements).flatMap(option => option.value ? readRequirementIndexOptions(option.value, cwd, UV_REQUIREMENT_FLAGS) : []))
  return chosen && { ...chosen, kind: chosen.url === 'none' ? 'none' : 'index-url' }
}

export function findUvDefaultIndex(context: ToolContext, command: UvCommand): UvDefaultIndex | undefined {
  const { own } = command
  const { env, cwd } = context
  if (findUvOptions(own, UV_OPTIONS.noIndex).length) return { url: 'none', origin: '--no-index', kind: 'none' }
  const flag = findUvOptions(own, UV_OPTIONS.defaultIndex).at(-1)
  if (flag?.value) return { url: flag.value, origin: flag.name, kind: 'default-index' }
  if (env.UV_DEFAULT_INDEX) return { url: env.UV_DEFAULT_INDEX, origin: 'UV_DEFAULT_INDEX', kind: 'default-index' }
  const files = configFiles(context, own)
  const marked = fromConfig(files, false)
  if (marked?.kind === 'default-index') return marked
  const legacy = findUvOptions(own, UV_OPTIONS.indexUrl).at(-1)
  if (legacy?.value) return { url: legacy.value, origin: legacy.name, kind: 'index-url' }
  if (env.UV_INDEX_URL) return { url: env.UV_INDEX_URL, origin: 'UV_INDEX_URL', kind: 'index-url' }
  return fromRequirementFiles(own, cwd) ?? fromConfig(files, command.verb.startsWith('pip '))
}

/**
 * The registry uv.lock pins (`source = { registry = "..." }`), for `--frozen` runs that use the lock's URLs: one
 * other than pypi.org when there is one, so that a private registry in the lock is the one reported.
 */
export function findLockedRegistry(context: ToolContext, command: UvCommand): { url: string; origin: string } | undefined {
  const start = resolve(context.cwd, findUvOptions(command.own, UV_OPTIONS.directory).at(-1)?.value ?? '.')
  const lock = nearestFile(start, ['uv.lock'])
  if (!lock) return undefined
  const registries = tablesAt(readTomlFile(lock), 'package').map(entry => stringAt(entry, 'source', 'registry')).filter((url): url is string => Boolean(url))
  const url = registries.find(registry => !/^https:\/\/pypi\.org\//.test(registry)) ?? registries[0]
  return url ? { url, origin: `${lock} (--frozen installs the URLs it pins)` } : undefined
}
