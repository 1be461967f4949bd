import { PYPI_UPSTREAM } from '../mirrors/pypi.js'
import { PIP_RELAY } from './relay/pip-relay.js'
import { withNetrc } from './source/credentials.js'
import { readPipConfig } from './config/pip-config.js'
import { streamedRequirementsChooseIndex } from './config/requirement-files.js'
import { findPipIndex, pipSubcommand } from './source/pip-index.js'
import { PIP_SOURCE } from './source/pip-source.js'
import { pipSourcesBeside } from './source/pip-beside.js'
import { pipPatience } from './source/pip-patience.js'
import { pep503PackageUrl, PIP_KNOBS, WHEELHOUSE_ONLY } from './source/python-index.js'
import type { ConfigFiles, KnobData, ReadOnlyForms, ToolAdapter } from './types.js'
import { named, shortCluster, versionAndHelp } from './argv/read-only.js'
import { PIP_ENVIRONMENT } from './config/environment.js'
import { withArgs as append, withEnv, withFlag } from './argv/command-line.js'
import { classifyVerb } from './argv/verbs.js'

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

// `pip list --outdated/--uptodate` asks the index; plain `list` does not. `pip search` always fails (PyPI's XML-RPC
// search is disabled): retrying it cannot help, so it is local.
const VERBS = { network: new Set(['install', 'download', 'wheel', 'index']), networkWhen: { list: /^(-o|-u|--outdated|--uptodate)$/ } }

// pip reads its options from PIP_<NAME> and from pip.conf's [global] and [<command>] sections (pip configuration.md).
const KNOBS = {
  options: { long: ['--timeout', '--default-timeout', '--retries'], minPrefix: 6, takesValue: true },
  env: PIP_KNOBS,
  settings: ['timeout', 'default-timeout', 'retries'],
} satisfies KnobData

const CONFIG_FILES = {
  names: ['pip.conf (PIP_CONFIG_FILE; /etc/xdg/pip, /etc, ~/.config/pip, ~/.pip, the environment\'s prefix)'],
  // `--isolated` skips the user's files; the first key set in any file counts.
  find: (keys, { args, env, home, executable, cwd }) => args.includes('--isolated') ? undefined
    : keys.map(key => readPipConfig(key, subcommand(args), env, home, { executable, cwd })?.origin).find(Boolean),
} satisfies ConfigFiles

export const pip = {
  name: 'pip',
  ecosystem: 'pypi',
  offline: WHEELHOUSE_ONLY,
  environment: PIP_ENVIRONMENT,
  shimNames: ['pip', 'pip3'],
  executables: /^pip(3(\.\d+)?)?(\.exe)?$/,
  readOnly: READ_ONLY,
  moduleLaunch: { interpreters: /^python(\d(\.\d+)?)?(\.exe)?$/, module: 'pip' },
  alternatives: [['pip'], ['pip3'], ['python3', '-m', 'pip'], ['python', '-m', 'pip']],
  defaultIndex: PYPI_UPSTREAM,
  verbs: VERBS,
  classify: args => classifyVerb(subcommand(args), args, VERBS),
  findUserIndex: findPipIndex,
  source: PIP_SOURCE,
  sourcesBeside: pipSourcesBeside,
  patience: pipPatience,
  vetStreamedInput: streamedRequirementsChooseIndex,
  knobs: KNOBS,
  configFiles: CONFIG_FILES,
  // Index options are command options: appended after the subcommand's own args, the last -i wins.
  applyIndex: (command, url) => append(command, '--index-url', url),
  passCredentials: withNetrc,
  // pip's check for a newer pip asks the index too, after the install: on a dead index it adds its own timeout to the
  // attempt (~6 s) and says nothing about the install. The first attempt stays as typed.
  forRetry: command => withEnv(command, { PIP_DISABLE_PIP_VERSION_CHECK: '1' }),
  bypassCache: command => withFlag(command, '--no-cache-dir'),
  personFixes: {
    trustHost: (command, host) => append(command, '--trusted-host', host),
    // A netrc, never `--index-url https://user:token@…` on argv: pip reads it for a URL without userinfo.
    withCredentials: (command, indexUrl, username, password, secrets) => withNetrc(command, { url: indexUrl, username, password }, secrets),
    userInstall: command => append(command, '--user'),
  },
  packageUrl: pep503PackageUrl,
  relay: PIP_RELAY,
  // Wheels only: an sdist's setup.py or build backend would run at install time. resilient run starts it as
  // `<the script's python> -m pip`, never a bare `pip` that may belong to another interpreter.
  scriptInstall: { add: names => ['pip', 'install', '--only-binary=:all:', '--no-input', ...names] },
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
