import { dirname, join, resolve } from 'node:path'
import { PYPI_UPSTREAM } from '../mirrors/pypi.js'
import { findOptions } from './argv/args.js'
import { nearestFile, readTomlFile, tablesAt, valueAt } from './config/project-files.js'
import { pep503PackageUrl } from './source/python-index.js'
import type { ConfigFiles, IndexChoice, KnobData, ReadOnlyForms, ToolAdapter, ToolContext } from './types.js'
import { named, versionAndHelp } from './argv/read-only.js'
import { withFlag } from './argv/command-line.js'
import { classifyArgs, type VerbTable } from './argv/verbs.js'

// poetry's docs/cli.md. Two-word commands: `self add`, `source show`, `cache clear`, `env info`, `python install`.
const NETWORK = new Set(['install', 'sync', 'add', 'remove', 'update', 'lock', 'search', 'self add', 'self update',
  'self install', 'self sync', 'self lock'])
// `poetry show --outdated/--latest` asks the index; plain `show` reads the lock.
const VERBS = { network: NETWORK, publish: new Set(['publish']), local: /^(-h|--help|-V|--version)$/,
  networkWhen: { show: /^(-o|-l|--outdated|--latest)$/ },
  syntax: { optionsWithValue: ['-C', '--directory', '-P', '--project'], groups: new Set(['self', 'source', 'cache', 'env', 'python', 'debug', 'config']) } } satisfies VerbTable
// The timeout is a variable only, read since poetry 1.5 (utils/constants.py; older versions keep 15 s); its 5
// retries on errors are hard-coded. `requests.max-retries` is also a config key.
const KNOBS = { env: ['POETRY_REQUESTS_TIMEOUT', 'POETRY_REQUESTS_MAX_RETRIES'], settings: ['requests.max-retries'] } satisfies KnobData
const DIRECTORY = { long: ['--directory', '--project'], short: ['-C', '-P'], takesValue: true }
// Read-only: cleo's own commands and versions. `show` and `check` are environment commands, for which poetry
// creates the project's virtualenv when it is missing (application.py configure_env): they go through resilient.
const READ_ONLY = {
  leadingFlags: ['-q', '--quiet', '-v', '-vv', '-vvv', '--verbose', '--no-ansi', '--ansi', '-n', '--no-interaction'],
  commands: [...versionAndHelp('--version', '-V', '--help', '-h'), ...named(['about', 'list', 'help'])],
} satisfies ReadOnlyForms

function pyproject({ args, cwd }: ToolContext): string | undefined {
  const directory = findOptions(args, DIRECTORY).at(-1)?.value
  return nearestFile(directory ? resolve(cwd, directory) : cwd, ['pyproject.toml'])
}

/**
 * `[[tool.poetry.source]]`: a primary source (the default when no priority is given; `default = true` before 1.5)
 * replaces PyPI; `poetry add --source NAME` picks one by name. Explicit sources serve only the packages pinned to them.
 */
function findUserIndex(context: ToolContext): IndexChoice | null {
  const file = pyproject(context)
  const sources = file ? tablesAt(readTomlFile(file), 'tool', 'poetry', 'source').filter(source => typeof source.url === 'string') : []
  const named = findOptions(context.args, { long: ['--source'], takesValue: true }).at(-1)?.value
  const primary = (source: Record<string, unknown>) => source.default === true || (['primary', 'default', undefined].includes(source.priority as string | undefined) && source.secondary !== true)
  const chosen = sources.find(source => named ? source.name === named : primary(source))
  return chosen && file ? { url: String(chosen.url), origin: `${file} [[tool.poetry.source]] ${String(chosen.name)}` } : null
}

/** poetry.toml next to pyproject.toml, then the user's config.toml (poetry config/config.py). */
const CONFIG_FILES = {
  names: ['poetry.toml (next to pyproject.toml)', 'config.toml (POETRY_CONFIG_DIR, ~/.config/pypoetry)'],
  find(keys, context) {
    const project = pyproject(context)
    const configDir = context.env.POETRY_CONFIG_DIR || join(context.env.XDG_CONFIG_HOME || join(context.home, '.config'), 'pypoetry')
    for (const file of [...(project ? [join(dirname(project), 'poetry.toml')] : []), join(configDir, 'config.toml')]) {
      const key = keys.find(name => valueAt(readTomlFile(file), ...name.split('.')) !== undefined)
      if (key) return `${file} ${key}`
    }
    return undefined
  },
} satisfies ConfigFiles

export const poetry = {
  name: 'poetry',
  ecosystem: 'pypi',
  shimNames: ['poetry'],
  executables: /^poetry(\.exe)?$/,
  readOnly: READ_ONLY,
  moduleLaunch: { interpreters: /^python(\d(\.\d+)?)?(\.exe)?$/, module: 'poetry' },
  alternatives: [['poetry'], ['python3', '-m', 'poetry']],
  defaultIndex: PYPI_UPSTREAM,
  verbs: VERBS,
  classify: args => classifyArgs(args, VERBS),
  findUserIndex,
  // PyPI's URL is fixed in poetry ("Omit the url when specifying PyPI"); a source would be written into pyproject.toml
  // and poetry.lock's content hash. So poetry retries its own index, with its own timeout shortened.
  noMirrorReason: () => 'poetry has no option or variable that points PyPI elsewhere for one run (python-poetry/poetry#1632); a [[tool.poetry.source]] would change pyproject.toml and poetry.lock',
  applyIndex: command => command,
  knobs: KNOBS,
  configFiles: CONFIG_FILES,
  bypassCache: command => withFlag(command, '--no-cache'),
  packageUrl: pep503PackageUrl,
  advice: {
    moreTime: 'POETRY_REQUESTS_TIMEOUT=120 poetry <command>',
    mirror: 'a source in pyproject.toml (poetry source add --priority=primary mirror <mirror-url>)',
    caBundle: 'REQUESTS_CA_BUNDLE=/path/ca.pem poetry <command> (or poetry config certificates.<source>.cert /path/ca.pem)',
    noCache: 'poetry cache clear --all pypi, then run again',
    cleanCache: 'poetry cache clear --all pypi',
  },
  verified: 'real',
  forms: '`poetry add\\|install\\|lock\\|update ...`, `python -m poetry`',
  testedWith: 'poetry 1.3',
  mirrorMechanism: 'none: poetry cannot be pointed at a mirror for one run; resilient retries the same index with `POETRY_REQUESTS_TIMEOUT=10`',
} satisfies ToolAdapter

