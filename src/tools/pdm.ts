import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { PYPI_UPSTREAM } from '../mirrors/pypi.js'
import { findOptions, firstPositional } from './args.js'
import { nearestFile, readTomlFile, stringAt, tablesAt, valueAt } from './project-files.js'
import { pep503PackageUrl, withEnv } from './python-index.js'
import type { IndexChoice, ToolAdapter, ToolContext, ToolKnobs } from './types.js'

// reference §8 and pdm cli/commands. `pdm run` runs the user's script, `pdm init` asks questions: both run once.
const NETWORK = new Set(['add', 'remove', 'install', 'sync', 'lock', 'update', 'outdated', 'search', 'build', 'self update'])
const GENERAL_WITH_VALUE = ['-c', '--config']
const PROJECT = { long: ['--project'], short: ['-p'], takesValue: true }
const CONFIG = { long: ['--config'], short: ['-c'], takesValue: true }

function verbOf(args: readonly string[]): string {
  const first = firstPositional(args, GENERAL_WITH_VALUE)
  if (!first || !['self', 'python', 'py', 'venv', 'cache'].includes(first.value)) return first?.value ?? ''
  return `${first.value} ${firstPositional(args.slice(first.index + 1))?.value ?? ''}`.trim()
}

function projectRoot({ args, cwd }: ToolContext): string | undefined {
  const given = findOptions(args, PROJECT).at(-1)?.value
  const pyproject = nearestFile(given ? resolve(cwd, given) : cwd, ['pyproject.toml'])
  return pyproject && dirname(pyproject)
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
function findUserIndex(context: ToolContext): IndexChoice | null {
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

function lockPinsUrls(path: string): boolean {
  try {
    return /\{\s*url\s*=\s*"https?:\/\//.test(readFileSync(path, 'utf8'))
  } catch {
    return false
  }
}

function findUserKnobs(context: ToolContext): ToolKnobs {
  if (context.env.PDM_REQUEST_TIMEOUT) return { userSet: true, origin: 'PDM_REQUEST_TIMEOUT' }
  const file = configFiles(context).find(path => valueAt(readTomlFile(path), 'request_timeout') !== undefined)
  return file ? { userSet: true, origin: `${file} request_timeout` } : { userSet: false }
}

export const pdm = {
  name: 'pdm',
  ecosystem: 'pypi',
  executables: /^pdm(\.exe)?$/,
  moduleLaunch: { interpreters: /^python(\d(\.\d+)?)?(\.exe)?$/, module: 'pdm' },
  alternatives: [['pdm'], ['python3', '-m', 'pdm']],
  defaultIndex: PYPI_UPSTREAM,
  classify(args) {
    if (args.some(arg => /^(-h|--help|-V|--version)$/.test(arg))) return 'local'
    const verb = verbOf(args)
    if (verb === 'publish') return 'publish'
    return NETWORK.has(verb) ? 'network' : 'local'
  },
  findUserIndex,
  noMirrorReason(context) {
    const root = projectRoot(context)
    if (!root || !['install', 'sync'].includes(verbOf(context.args))) return undefined
    // pdm 2.8+ locks file names and hashes only, unless with `-S static_urls` (docs/usage/lockfile.md); older pdm
    // records `{url = ..., hash = ...}` for every file. Either way install and sync download the URLs it pins.
    return lockPinsUrls(join(root, 'pdm.lock')) ? 'pdm.lock pins the download URL of every file: pdm install/sync fetch them from there' : undefined
  },
  findUserKnobs,
  // The variable beats pdm.toml and the global config (a ChainMap with env first, project/config.py), and pdm
  // never writes it anywhere; pdm.lock stores no index URL by default.
  applyIndex: (command, url) => withEnv(command, { PDM_PYPI_URL: url }),
  // Default 15 s; its 4 retries are for connection errors only (models/session.py MAX_RETRIES).
  tuneForFastDetection: command => withEnv(command, { PDM_REQUEST_TIMEOUT: '10' }),
  bypassCache: command => withEnv(command, { PDM_NO_CACHE: '1' }),
  packageUrl: pep503PackageUrl,
  verified: 'real',
  mirrorMechanism: '`PDM_PYPI_URL=<mirror>` (not when a `[[tool.pdm.source]]` is named `pypi`: it beats the variable)',
} satisfies ToolAdapter
