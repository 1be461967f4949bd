import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PYPI_UPSTREAM } from '../mirrors/pypi.js'
import { findOptions, firstPositional, type OptionSpec } from './args.js'
import { readPipConfig } from './pip-config.js'
import { firstSet, pep503PackageUrl, PIP_FAST, PIP_KNOBS, UV_FAST, UV_KNOBS, withEnv } from './python-index.js'
import type { IndexChoice, ToolAdapter, ToolContext, ToolKnobs } from './types.js'

// reference §7 and pipx main.py. `run` starts the app like uvx; `runpip` passes anything to pip: it runs once.
const NETWORK = new Set(['install', 'install-all', 'inject', 'upgrade', 'upgrade-all', 'upgrade-shared', 'reinstall',
  'reinstall-all', 'run', 'repair'])
// argparse takes unique prefixes (allow_abbrev): `--ind` is --index-url, `--pi` is --pip-args.
const INDEX_URL: OptionSpec = { long: ['--index-url'], short: ['-i'], minPrefix: 5, takesValue: true }
const PIP_ARGS: OptionSpec = { long: ['--pip-args'], minPrefix: 4, takesValue: true }
// pip's own spellings inside --pip-args and pipx_metadata.json (optparse prefixes, hidden --pypi-url).
const PIP_INDEX: OptionSpec = { long: ['--index-url', '--pypi-url'], short: ['-i'], minPrefix: 5, takesValue: true }
const RUN_WITH_VALUE = ['--spec', '--python', '--pip-args', '--index-url', '-i', '--backend', '--cooldown']

/** pipx's own arguments: for `run`, those before the app (what follows belongs to the app). */
function ownArgs(args: readonly string[]): { verb: string; own: string[]; packages: string[] } {
  const verb = firstPositional(args)
  if (!verb) return { verb: '', own: [...args], packages: [] }
  const rest = args.slice(verb.index + 1)
  const app = verb.value === 'run' ? firstPositional(rest, RUN_WITH_VALUE) : undefined
  const own = app ? args.slice(0, verb.index + 1 + app.index) : [...args]
  const packages = rest.filter(arg => !arg.startsWith('-'))
  return { verb: verb.value, own, packages }
}

/** `--pip-args "..."`, split the way shlex does for plain words and quotes. */
function splitPipArgs(value: string): string[] {
  return [...value.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map(match => match[1] ?? match[2] ?? match[3]!)
}

function pipIndexIn(args: readonly string[], origin: string): IndexChoice | undefined {
  if (args.includes('--no-index')) return { url: 'none', origin }
  const found = findOptions(args, PIP_INDEX).at(-1)
  return found?.value ? { url: found.value, origin } : undefined
}

/** pip_args stored at install time and reused by upgrade/reinstall (pipx_metadata_file.py). */
function storedIndex({ env, home }: ToolContext, verb: string, packages: string[]): IndexChoice | undefined {
  const homes = env.PIPX_HOME ? [env.PIPX_HOME] : [join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'pipx'), join(home, '.local', 'pipx')]
  const venvs = homes.map(dir => join(dir, 'venvs')).find(dir => existsSync(dir))
  if (!venvs || !['upgrade', 'reinstall', 'inject', 'upgrade-all', 'reinstall-all'].includes(verb)) return undefined
  const names = verb.endsWith('-all') ? readdirSync(venvs) : packages.slice(0, 1)
  for (const name of names) {
    const file = join(venvs, name, 'pipx_metadata.json')
    try {
      const pipArgs = JSON.parse(readFileSync(file, 'utf8'))?.main_package?.pip_args
      const found = Array.isArray(pipArgs) ? pipIndexIn(pipArgs.map(String), `${file} pip_args`) : undefined
      if (found) return found
    } catch {
      continue
    }
  }
  return undefined
}

/** An index pipx hands to pip on its command line, where it beats any variable. */
function commandLineIndex(context: ToolContext): IndexChoice | undefined {
  const { verb, own, packages } = ownArgs(context.args)
  const flag = findOptions(own, INDEX_URL).at(-1)
  if (flag?.value) return { url: flag.value, origin: flag.name }
  const pipArgs = findOptions(own, PIP_ARGS).map(option => pipIndexIn(splitPipArgs(option.value ?? ''), option.name)).filter(Boolean).at(-1)
  return pipArgs ?? storedIndex(context, verb, packages)
}

function findUserIndex(context: ToolContext): IndexChoice | null {
  const onCommandLine = commandLineIndex(context)
  if (onCommandLine) return onCommandLine
  const { env, home } = context
  // The pip backend reads PIP_* and pip.conf, the uv backend (pipx 1.12+) UV_*.
  for (const name of ['PIP_INDEX_URL', 'UV_DEFAULT_INDEX', 'UV_INDEX_URL']) if (env[name]) return { url: env[name]!, origin: name }
  const config = readPipConfig('index-url', 'install', env, home)
  return config ? { url: config.value, origin: config.origin } : null
}

function findUserKnobs({ env, home }: ToolContext): ToolKnobs {
  const variable = firstSet(env, [...PIP_KNOBS, ...UV_KNOBS])
  if (variable) return { userSet: true, origin: variable }
  for (const key of ['timeout', 'default-timeout', 'retries']) {
    const config = readPipConfig(key, 'install', env, home)
    if (config) return { userSet: true, origin: config.origin }
  }
  return { userSet: false }
}

export const pipx = {
  name: 'pipx',
  ecosystem: 'pypi',
  executables: /^pipx(\.exe)?$/,
  moduleLaunch: { interpreters: /^python(\d(\.\d+)?)?(\.exe)?$/, module: 'pipx' },
  alternatives: [['pipx'], ['python3', '-m', 'pipx']],
  defaultIndex: PYPI_UPSTREAM,
  classify(args) {
    const { verb, own } = ownArgs(args)
    if (own.some(arg => /^(-h|--help|--version)$/.test(arg))) return 'local'
    if (verb === 'list') return own.includes('--outdated') ? 'network' : 'local'
    return NETWORK.has(verb) ? 'network' : 'local'
  },
  findUserIndex,
  noMirrorReason(context) {
    const chosen = commandLineIndex(context)
    // Replacing it would need --index-url or --pip-args, which pipx stores in pipx_metadata.json for later upgrades.
    return chosen ? `pipx passes the index to pip on its command line (${chosen.origin}), where it beats any variable; a replacement there would be stored in pipx_metadata.json` : undefined
  },
  findUserKnobs,
  // Variables, which pipx does not record in pipx_metadata.json; both, as the backend (pip or uv) is pipx's choice.
  applyIndex: (command, url) => withEnv(command, { PIP_INDEX_URL: url, UV_INDEX_URL: url }),
  tuneForFastDetection: command => withEnv(command, { ...PIP_FAST, ...UV_FAST }),
  bypassCache: command => withEnv(command, { PIP_NO_CACHE_DIR: '1', UV_NO_CACHE: '1' }),
  packageUrl: pep503PackageUrl,
  verified: 'real',
  mirrorMechanism: '`PIP_INDEX_URL=<mirror>` and `UV_INDEX_URL=<mirror>` (pip or uv backend); not recorded in pipx_metadata.json',
} satisfies ToolAdapter
