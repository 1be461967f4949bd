import { PYPI_UPSTREAM } from '../mirrors/pypi.js'
import { readPipConfig } from './config/pip-config.js'
import { commandLineIndex, pipxArgs } from './source/pipx-index.js'
import { pipSourcesBeside } from './source/pip-beside.js'
import { asPip, PIPX_RELAY } from './relay/pipx-relay.js'
import { pep503PackageUrl, PIP_KNOBS, UV_KNOBS } from './source/python-index.js'
import type { ConfigFiles, IndexChoice, KnobData, ReadOnlyForms, ToolAdapter, ToolContext } from './types.js'
import { named, versionAndHelp } from './argv/read-only.js'
import { withEnv } from './argv/command-line.js'
import { classifyVerb } from './argv/verbs.js'

// pipx main.py. `run` starts the app like uvx; `runpip` passes anything to pip: it runs once.
const NETWORK = new Set(['install', 'install-all', 'inject', 'upgrade', 'upgrade-all', 'upgrade-shared', 'reinstall',
  'reinstall-all', 'run', 'repair'])
const VERBS = { network: NETWORK, local: /^(-h|--help|--version)$/, networkWhen: { list: /^--outdated$/ } }
// Read-only (pipx main.py). argparse takes any unique prefix of `--outdated`.
const READ_ONLY = {
  leadingFlags: [],
  commands: [...versionAndHelp('--version', '--help', '-h'), { words: ['list'], deny: ['--o*'] }, ...named(['environment'])],
} satisfies ReadOnlyForms

function findUserIndex(context: ToolContext): IndexChoice | null {
  const onCommandLine = commandLineIndex(context)
  if (onCommandLine) return onCommandLine
  const { env, home } = context
  // The pip backend reads PIP_* and pip.conf, the uv backend (pipx 1.12+) UV_*.
  for (const name of ['PIP_INDEX_URL', 'UV_DEFAULT_INDEX', 'UV_INDEX_URL']) if (env[name]) return { url: env[name]!, origin: name }
  const config = readPipConfig('index-url', 'install', env, home)
  return config ? { url: config.value, origin: config.origin } : null
}

// The backend's knobs, pip's or uv's (pipx's choice): both are looked for, both are set.
const KNOBS = { env: [...PIP_KNOBS, ...UV_KNOBS], settings: ['timeout', 'default-timeout', 'retries'] } satisfies KnobData

/** pip's config files, as pipx's pip backend reads them for `pip install`. */
const CONFIG_FILES = {
  names: ['pip.conf (for the pip backend)'],
  find: (keys, { env, home }) => keys.map(key => readPipConfig(key, 'install', env, home)?.origin).find(Boolean),
} satisfies ConfigFiles

export const pipx = {
  name: 'pipx',
  ecosystem: 'pypi',
  shimNames: ['pipx'],
  executables: /^pipx(\.exe)?$/,
  readOnly: READ_ONLY,
  moduleLaunch: { interpreters: /^python(\d(\.\d+)?)?(\.exe)?$/, module: 'pipx' },
  alternatives: [['pipx'], ['python3', '-m', 'pipx']],
  defaultIndex: PYPI_UPSTREAM,
  verbs: VERBS,
  classify(args) {
    // pipx's own arguments only: what follows the app of `pipx run` is the app's (`pipx run black --help`).
    const { verb, own } = pipxArgs(args)
    return classifyVerb(verb, own, VERBS)
  },
  findUserIndex,
  // pip's extra indexes and find-links, in --pip-args, PIP_* or pip.conf: pip merges their versions with the index's.
  sourcesBeside: context => pipSourcesBeside(asPip(context)),
  noMirrorReason(context) {
    const chosen = commandLineIndex(context)
    // Replacing it would need --index-url or --pip-args, which pipx stores in pipx_metadata.json for later upgrades.
    return chosen ? `pipx passes the index to pip on its command line (${chosen.origin}), where it beats any variable; a replacement there would be stored in pipx_metadata.json` : undefined
  },
  knobs: KNOBS,
  configFiles: CONFIG_FILES,
  // Variables, which pipx does not record in pipx_metadata.json; both, as the backend (pip or uv) is pipx's choice.
  applyIndex: (command, url) => withEnv(command, { PIP_INDEX_URL: url, UV_INDEX_URL: url }),
  bypassCache: command => withEnv(command, { PIP_NO_CACHE_DIR: '1', UV_NO_CACHE: '1' }),
  packageUrl: pep503PackageUrl,
  relay: PIPX_RELAY,
  advice: {
    moreTime: 'PIP_TIMEOUT=60 PIP_RETRIES=5 pipx <command>',
    mirror: 'pipx install --index-url <mirror-url> <package>',
    caBundle: 'pipx install --pip-args="--cert /path/ca.pem" <package>',
    noCache: 'pipx install --pip-args=--no-cache-dir <package>',
    cleanCache: 'pip cache purge',
    lookUp: 'pip index versions <name>',
  },
  verified: 'real',
  forms: '`pipx install\\|upgrade\\|reinstall\\|inject\\|run ...`, `python -m pipx`',
  testedWith: 'pipx 1.1',
  mirrorMechanism: '`PIP_INDEX_URL=<mirror>` and `UV_INDEX_URL=<mirror>` (pip or uv backend); not recorded in pipx_metadata.json',
} satisfies ToolAdapter
