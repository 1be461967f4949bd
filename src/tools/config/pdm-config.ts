import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { findOptions, firstPositional } from '../argv/args.js'
import { nearestFile, readTomlFile, stringAt, tablesAt, valueAt } from './project-files.js'
import type { ConfigFiles, IndexChoice, SourceBeside, ToolContext } from '../types.js'

/** pdm's project, config files and lockfile, read without starting Python (pdm project/config.py, project/core.py). */
export const GENERAL_WITH_VALUE = ['-c', '--config']
const PROJECT = { long: ['--project'], short: ['-p'], takesValue: true }
const CONFIG = { long: ['--config'], short: ['-c'], takesValue: true }

export function projectRoot({ args, cwd }: ToolContext): string | undefined {
  const given = findOptions(args, PROJECT).at(-1)?.value
  const pyproject = nearestFile(given ? resolve(cwd, given) : cwd, ['pyproject.toml'])
  return pyproject && dirname(pyproject)
}

/** pdm's command: its first word, two for `self`, `python`, `venv` and `cache` (`self update`). */
export function pdmVerb(args: readonly string[]): string {
  const first = firstPositional(args, GENERAL_WITH_VALUE)
  if (!first || !['self', 'python', 'py', 'venv', 'cache'].includes(first.value)) return first?.value ?? ''
  return `${first.value} ${firstPositional(args.slice(first.index + 1))?.value ?? ''}`.trim()
}

/** Config files, highest precedence first: the project's pdm.toml (.pdm.toml before 2.0), then the global one. */
function configFiles(context: ToolContext): string[] {
  const root = projectRoot(context)
  const { env, home, args, cwd } = context
  const explicit = findOptions(args.slice(0, firstPositional(args, GENERAL_WITH_VALUE)?.index), CONFIG).at(-1)?.value ?? env.PDM_CONFIG_FILE
  const global = explicit ? resolve(cwd, explicit) : join(env.XDG_CONFIG_HOME || join(home, '.config'), 'pdm', 'config.toml')
  return [...(root ? [join(root, 'pdm.toml'), join(root, '.pdm.toml')] : []), global]
}

/**
 * The index pdm uses in PyPI's place: a `[[tool.pdm.source]]` named `pypi` (it beats PDM_PYPI_URL, so it is locked),
 * else PDM_PYPI_URL, else `pypi.url` in the config files. Other sources are extra indexes a mirror does not replace.
 */
export function findUserIndex(context: ToolContext): IndexChoice | null {
  const root = projectRoot(context)
  const named = root ? tablesAt(readTomlFile(join(root, 'pyproject.toml')), 'tool', 'pdm', 'source').find(source => source.name === 'pypi' && typeof source.url === 'string') : undefined
  if (named && root) return { url: String(named.url), origin: `${join(root, 'pyproject.toml')} [[tool.pdm.source]] name = "pypi"`, locked: true }
  if (context.env.PDM_PYPI_URL) return { url: context.env.PDM_PYPI_URL, origin: 'PDM_PYPI_URL' }
  for (const file of configFiles(context)) {
    const url = stringAt(readTomlFile(file), 'pypi', 'url')
    if (url) return { url, origin: `${file} pypi.url` }
  }
  return null
}

/** A setting as pdm reads it from its config files (dotted key, `pypi.ca_certs`), the nearest file first, and where. */
export function pdmSetting(key: string, context: ToolContext): { value: unknown; origin: string } | undefined {
  for (const file of configFiles(context)) {
    const value = valueAt(readTomlFile(file), ...key.split('.'))
    if (value !== undefined) return { value, origin: `${file} ${key}` }
  }
  return undefined
}

/**
 * The project's `[[tool.pdm.source]]` other than the one named `pypi`: pdm looks a name up in every source and takes
 * the best candidate (unless `respect-source-order`, when still a name missing from the first is looked for in the
 * next), so a mirror asked for the name could shadow them (project/core.py sources, unearth's finder).
 */
export function pdmSourcesBeside(context: ToolContext): SourceBeside[] {
  const root = projectRoot(context)
  if (!root) return []
  const file = join(root, 'pyproject.toml')
  return tablesAt(readTomlFile(file), 'tool', 'pdm', 'source').filter(source => source.name !== 'pypi')
    .map(source => ({ url: typeof source.url === 'string' ? source.url : '', origin: `${file} [[tool.pdm.source]]`, merged: true }))
}

export function lockPinsUrls(path: string): boolean {
  try {
    return /\{\s*url\s*=\s*"https?:\/\//.test(readFileSync(path, 'utf8'))
  } catch {
    return false
  }
}

/** pdm.toml in the project, then the global config.toml (or `-c`/PDM_CONFIG_FILE); keys are dotted (`pypi.url`). */
export const PDM_CONFIG_FILES = {
  names: ['pdm.toml (the project\'s)', 'config.toml (-c, PDM_CONFIG_FILE, ~/.config/pdm)'],
  find(keys, context) {
    for (const file of configFiles(context)) {
      const key = keys.find(name => valueAt(readTomlFile(file), ...name.split('.')) !== undefined)
      if (key) return `${file} ${key}`
    }
    return undefined
  },
} satisfies ConfigFiles
