import { PYPI_UPSTREAM } from '../mirrors/pypi.js'
import { findOptions } from './args.js'
import { withNetrc } from './credentials.js'
import { readPipConfig } from './pip-config.js'
import { streamedRequirementsChooseIndex } from './requirement-files.js'
import { findPipIndex, pipSubcommand } from './pip-index.js'
import { firstSet, pep503PackageUrl, PIP_FAST, PIP_KNOBS, WHEELHOUSE_ONLY } from './python-index.js'
import type { ReadOnlyForms, ToolAdapter, ToolContext, ToolKnobs } from './types.js'
import { named, shortCluster, versionAndHelp } from './read-only.js'
import { PIP_ENVIRONMENT } from './environment.js'
import { withArgs as append, withEnv, withFlag } from './command-line.js'

const TIMEOUT = { long: ['--timeout', '--default-timeout', '--retries'], minPrefix: 6, takesValue: true }
const subcommand = pipSubcommand

// Read-only (pip's command list, pip/_internal/commands/__init__.py). `list -o/-u` asks the index: optparse takes `--outd` for
// `--outdated` and `-lo` for `-l -o`, so every such spelling goes through resilient.
const READ_ONLY = {
  leadingFlags: ['--isolated', '-q', '-qq', '-qqq', '--quiet', '-v', '-vv', '-vvv', '--verbose', '--no-color',
    '--disable-pip-version-check', '--no-input', '--require-virtualenv'],
  commands: [...versionAndHelp('--version', '-V', '--help', '-h'), { words: ['list'], deny: ['--o*', '--up*', ...shortCluster('ou')] },
    ...named(['freeze', 'show', 'check', 'inspect', 'help', 'debug', 'hash', 'completion']),
    ...named(['get', 'list', 'debug'], { under: ['config'] }), ...named(['dir', 'info', 'list'], { under: ['cache'] })],
} satisfies ReadOnlyForms

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

export const pip = {
  name: 'pip',
  ecosystem: 'pypi',
  offline: WHEELHOUSE_ONLY,
  environment: PIP_ENVIRONMENT,
  executables: /^pip(3(\.\d+)?)?(\.exe)?$/,
  readOnly: READ_ONLY,
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
  findUserIndex: findPipIndex,
  vetStreamedInput: streamedRequirementsChooseIndex,
  findUserKnobs,
  // Index options are command options: appended after the subcommand's own args, the last -i wins.
  applyIndex: (command, url) => append(command, '--index-url', url),
  // Environment, not flags: PEP 517 build-isolation subprocesses inherit env but not --timeout (pip build_env.py).
  tuneForFastDetection: command => withEnv(command, PIP_FAST),
  passCredentials: withNetrc,
  bypassCache: command => withFlag(command, '--no-cache-dir'),
  personFixes: {
    trustHost: (command, host) => append(command, '--trusted-host', host),
    // A netrc, never `--index-url https://user:token@…` on argv: pip reads it for a URL without userinfo.
    withCredentials: (command, indexUrl, username, password, secrets) => withNetrc(command, { url: indexUrl, username, password }, secrets),
    userInstall: command => append(command, '--user'),
  },
  packageUrl: pep503PackageUrl,
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
  forms: '`pip`, `pip3`, `pip3.X`, `python -m pip`, `python3 -m pip`, `pythonX.Y -m pip`',
  testedWith: 'pip 23.2',
  mirrorMechanism: '`--index-url <mirror>` appended to the command (`--no-cache-dir` after a hash mismatch)',
} satisfies ToolAdapter
