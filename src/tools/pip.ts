import { PYPI_UPSTREAM } from '../mirrors/pypi.js'
import { findOptions, firstPositional } from './args.js'
import { readPipConfig, readRequirementIndexOptions } from './pip-config.js'
import { firstSet, PIP_FAST, PIP_KNOBS, withEnv } from './python-index.js'
import type { CommandLine, IndexChoice, ToolAdapter, ToolContext, ToolKnobs } from './types.js'

// General options that take a value and may stand before the subcommand (pip --help).
const GENERAL_WITH_VALUE = ['--log', '--proxy', '--retries', '--timeout', '--default-timeout', '--exists-action',
  '--trusted-host', '--cert', '--client-cert', '--cache-dir', '--python', '--use-feature', '--use-deprecated',
  '--keyring-provider']

// optparse accepts any unique prefix; these lengths keep each prefix unambiguous among pip 20-26 options.
const INDEX_URL = { long: ['--index-url', '--pypi-url'], short: ['-i'], minPrefix: 5, takesValue: true }
const NO_INDEX = { long: ['--no-index'], minPrefix: 6, takesValue: false }
const REQUIREMENT = { long: ['--requirement', '--constraint'], short: ['-r', '-c'], minPrefix: 9, takesValue: true }
const TIMEOUT = { long: ['--timeout', '--default-timeout', '--retries'], minPrefix: 6, takesValue: true }

function subcommand(args: string[]): string | undefined {
  return firstPositional(args, GENERAL_WITH_VALUE)?.value
}

function findUserIndex({ args, env, cwd, home }: ToolContext): IndexChoice | null {
  const noIndex = findOptions(args, NO_INDEX)[0]
  if (noIndex) return { url: 'none', origin: '--no-index' }
  const fromArgs = findOptions(args, INDEX_URL).at(-1)
  // A requirement file's --index-url replaces the index list, whatever the command line says (pip req_file.py).
  const fromFiles = findOptions(args, REQUIREMENT).flatMap(option => option.value ? readRequirementIndexOptions(option.value, cwd) : [])
  const fileIndex = fromFiles.filter(line => ['-i', '--index-url', '--no-index'].includes(line.option)).at(-1)
  if (fileIndex) return { url: fileIndex.option === '--no-index' ? 'none' : fileIndex.value ?? '', origin: fileIndex.origin, locked: true }
  if (fromArgs?.value) return { url: fromArgs.value, origin: fromArgs.name }
  if (args.includes('--isolated')) return null
  for (const name of ['PIP_INDEX_URL', 'PIP_PYPI_URL']) if (env[name]) return { url: env[name]!, origin: name }
  if (env.PIP_NO_INDEX && !/^(0|false|no|off)$/i.test(env.PIP_NO_INDEX)) return { url: 'none', origin: 'PIP_NO_INDEX' }
  const config = readPipConfig('index-url', subcommand(args), env, home)
  return config ? { url: config.value, origin: config.origin } : null
}

function findUserKnobs({ args, env, home }: ToolContext): ToolKnobs {
  const flag = findOptions(args, TIMEOUT)[0]
  if (flag) return { userSet: true, origin: flag.name }
  const fromEnv = firstSet(env, PIP_KNOBS)
  if (fromEnv) return { userSet: true, origin: fromEnv }
  if (args.includes('--isolated')) return { userSet: false }
  for (const key of ['timeout', 'default-timeout', 'retries']) {
    const config = readPipConfig(key, subcommand(args), env, home)
    if (config) return { userSet: true, origin: config.origin }
  }
  return { userSet: false }
}

function append(command: CommandLine, ...extra: string[]): CommandLine {
  return { ...command, argv: [...command.argv, ...extra] }
}

export const pip = {
  name: 'pip',
  ecosystem: 'pypi',
  executables: /^pip(3(\.\d+)?)?(\.exe)?$/,
  moduleLaunch: { interpreters: /^python(\d(\.\d+)?)?(\.exe)?$/, module: 'pip' },
  alternatives: [['pip'], ['pip3'], ['python3', '-m', 'pip'], ['python', '-m', 'pip']],
  defaultIndex: PYPI_UPSTREAM,
  classify(args) {
    const verb = subcommand(args)
    if (verb === undefined) return 'local'
    if (['install', 'download', 'wheel', 'index'].includes(verb)) return 'network'
    // `pip list --outdated/--uptodate` asks the index; plain `list` does not.
    if (verb === 'list' && args.some(arg => /^(-o|-u|--outdated|--uptodate)$/.test(arg))) return 'network'
    // `pip search` always fails (PyPI's XML-RPC search is disabled): retrying it cannot help.
    return 'local'
  },
  findUserIndex,
  findUserKnobs,
  // Index options are command options: appended after the subcommand's own args, the last -i wins.
  applyIndex: (command, url) => append(command, '--index-url', url),
  // Environment, not flags: PEP 517 build-isolation subprocesses inherit env but not --timeout (pip build_env.py).
  tuneForFastDetection: command => withEnv(command, PIP_FAST),
  bypassCache: command => command.argv.includes('--no-cache-dir') ? command : append(command, '--no-cache-dir'),
  personFixes: {
    trustHost: (command, host) => append(command, '--trusted-host', host),
    withCredentials: (command, indexUrl, username, token) => {
      const url = new URL(indexUrl)
      url.username = encodeURIComponent(username)
      url.password = encodeURIComponent(token)
      return append(command, '--index-url', url.toString())
    },
    userInstall: command => append(command, '--user'),
  },
  // PEP 503: names are normalised to lower case with runs of -_. as one dash.
  packageUrl: (indexUrl, name) => `${indexUrl.replace(/\/+$/, '')}/${name.toLowerCase().replace(/[-_.]+/g, '-')}/`,
  advice: {
    moreTime: 'pip install --timeout 60 --retries 5 <package>',
    mirror: 'pip install --index-url <mirror-url> <package>',
    caBundle: 'pip install --cert /path/ca.pem <package> (or PIP_CERT)',
    proxy: 'pip install --proxy http://host:port',
    noCache: 'pip install --no-cache-dir <package>',
    cleanCache: 'pip cache purge',
    lookUp: 'pip index versions <name>',
  },
  verified: 'real',
  mirrorMechanism: '`--index-url <mirror>` appended to the command',
} satisfies ToolAdapter
