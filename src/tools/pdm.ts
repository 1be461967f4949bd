import { join } from 'node:path'
import { PYPI_UPSTREAM } from '../mirrors/pypi.js'
import { findUserIndex, lockPinsUrls, PDM_CONFIG_FILES, pdmSourcesBeside, pdmVerb as verbOf, projectRoot } from './config/pdm-config.js'
import { PDM_RELAY } from './relay/pdm-relay.js'
import { pep503PackageUrl } from './source/python-index.js'
import type { ReadOnlyForms, ToolAdapter } from './types.js'
import { named, versionAndHelp } from './argv/read-only.js'
import { networkVariables } from './config/environment.js'
import { withEnv } from './argv/command-line.js'
import { classifyVerb } from './argv/verbs.js'

// pdm's src/pdm/cli/commands. `pdm run` runs the user's script, `pdm init` asks questions: both run once.
const NETWORK = new Set(['add', 'remove', 'install', 'sync', 'lock', 'update', 'outdated', 'search', 'build', 'self update'])
const VERBS = { network: NETWORK, publish: new Set(['publish']), local: /^(-h|--help|-V|--version)$/ }

// Read-only: versions and listings that need no project environment (pdm creates a venv for commands that do).
const READ_ONLY = {
  leadingFlags: [],
  commands: [...versionAndHelp('--version', '-V', '--help', '-h'), ...named(['list'], { under: ['venv'] }), ...named(['info'], { under: ['cache'] })],
} satisfies ReadOnlyForms

export const pdm = {
  name: 'pdm',
  ecosystem: 'pypi',
  environment: networkVariables('pdm', 'PDM_PYPI_URL'),
  shimNames: ['pdm'],
  executables: /^pdm(\.exe)?$/,
  readOnly: READ_ONLY,
  moduleLaunch: { interpreters: /^python(\d(\.\d+)?)?(\.exe)?$/, module: 'pdm' },
  alternatives: [['pdm'], ['python3', '-m', 'pdm']],
  defaultIndex: PYPI_UPSTREAM,
  verbs: VERBS,
  classify: args => classifyVerb(verbOf(args), args, VERBS),
  findUserIndex,
  sourcesBeside: pdmSourcesBeside,
  noMirrorReason(context) {
    const root = projectRoot(context)
    if (!root || !['install', 'sync'].includes(verbOf(context.args))) return undefined
    // pdm 2.8+ locks file names and hashes only, unless with `-S static_urls` (docs/usage/lockfile.md); older pdm
    // records `{url = ..., hash = ...}` for every file. Either way install and sync download the URLs it pins.
    return lockPinsUrls(join(root, 'pdm.lock')) ? 'pdm.lock pins the download URL of every file: pdm install/sync fetch them from there' : undefined
  },
  // Default 15 s; its 4 retries are for connection errors only (models/session.py MAX_RETRIES).
  knobs: { env: ['PDM_REQUEST_TIMEOUT'], settings: ['request_timeout'] },
  configFiles: PDM_CONFIG_FILES,
  // The variable beats pdm.toml and the global config (a ChainMap with env first, project/config.py), and pdm
  // never writes it anywhere; pdm.lock stores no index URL by default.
  applyIndex: (command, url) => withEnv(command, { PDM_PYPI_URL: url }),
  bypassCache: command => withEnv(command, { PDM_NO_CACHE: '1' }),
  packageUrl: pep503PackageUrl,
  relay: PDM_RELAY,
  advice: {
    moreTime: 'PDM_REQUEST_TIMEOUT=60 pdm <command>',
    mirror: 'PDM_PYPI_URL=<mirror-url> pdm <command>',
    caBundle: 'pdm config pypi.ca_certs /path/ca.pem (or REQUESTS_CA_BUNDLE)',
    noCache: 'pdm cache clear, then run again',
    cleanCache: 'pdm cache clear',
  },
  verified: 'real',
  forms: '`pdm add\\|install\\|sync\\|lock\\|update ...`, `python -m pdm`',
  testedWith: 'pdm 2.2',
  mirrorMechanism: '`PDM_PYPI_URL=<mirror>` (not when a `[[tool.pdm.source]]` is named `pypi`: it beats the variable); none when pdm.lock pins URLs (said so)',
} satisfies ToolAdapter
