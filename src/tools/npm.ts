import { NPM_UPSTREAM } from '../mirrors/npm.js'
import { NPM_RELAY } from './npm-relay.js'
import { firstPositional } from './args.js'
import { hostOf, sameIndex } from '../url.js'
import { NPM_LOCKFILE } from './lockfile-formats.js'
import { addOptions, NPM_FAST, NPM_FETCH_KNOBS, NPM_KNOB_OPTION, npmPackageUrl, REGISTRY_OPTION } from './npm-family.js'
import { npmrcFiles, readNpmrcSetting } from './npmrc.js'
import { withNpmrc } from './credentials.js'
import { findRegistryChoice } from './npm-registry-choice.js'
import type { CommandLine, ConfigFiles, IndexChoice, KnobData, LockfileSupport, PinnedRegistry, ReadOnlyForms, ToolAdapter, ToolContext } from './types.js'
import { named, versionAndHelp } from './read-only.js'
import { registryVariable } from './environment.js'
import { classifyVerb } from './verbs.js'

// Options that take a value and may stand before the command (`npm --registry X install`).
const GLOBAL_WITH_VALUE = ['--registry', '--reg', '--userconfig', '--globalconfig', '--cache', '--prefix', '-C', '--loglevel',
  '--workspace', '-w', '--proxy', '--https-proxy', '--noproxy', '--cafile', '--ca', '--cert', '--key', '--omit', '--include',
  '--before', '--install-strategy', '--otp', '--replace-registry-host', '--location', '--logs-dir', ...NPM_FETCH_KNOBS.map(knob => `--${knob}`)]

// Aliases from npm's lib/utils/cmd-list.js: installs, clean installs, updates, and read-only queries.
const NETWORK = new Set(['install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'isntall', 'add',
  'ci', 'clean-install', 'ic', 'install-clean', 'isntall-clean', 'install-test', 'it', 'install-ci-test', 'cit', 'sit',
  'update', 'u', 'up', 'upgrade', 'udpate', 'dedupe', 'ddp', 'outdated', 'view', 'info', 'show', 'v'])
// A mirror must never see credentials or uploads.
const PUBLISH = new Set(['publish', 'unpublish', 'login', 'logout', 'adduser', 'add-user', 'owner', 'author', 'dist-tag',
  'dist-tags', 'deprecate', 'undeprecate', 'access', 'token', 'team', 'org', 'star', 'unstar', 'stars', 'whoami', 'trust', 'profile', 'hook'])
const VERBS = { network: NETWORK, publish: PUBLISH, local: /^--offline$/ }

// Read-only (lib/utils/cmd-list.js): listing, explaining and reading config; `config set` and every script run go through.
const READ_ONLY = {
  leadingFlags: ['-g', '--global', '--json', '-s', '--silent', '-q', '--quiet', '-l', '--long', '-p', '--parseable', '--no-color'],
  commands: [...versionAndHelp('--version', '-v', '--help', '-h'),
    ...named(['ls', 'list', 'll', 'la', 'explain', 'why', 'prefix', 'root', 'query', 'help', 'help-search', 'get']),
    ...named(['get', 'list', 'ls'], { under: ['config'] }), ...named(['get', 'list', 'ls'], { under: ['c'] })],
} satisfies ReadOnlyForms

function findUserIndex(context: ToolContext): IndexChoice | null {
  return findRegistryChoice(context, { options: [REGISTRY_OPTION], env: ['npm_config_registry'], npmrc: npmrcFiles(context), defaultIndex: NPM_UPSTREAM })
}

// npm reads every setting from the command line, npm_config_* in any case, then the npmrc files (npm config.md).
const KNOBS = { options: NPM_KNOB_OPTION, env: NPM_FETCH_KNOBS.map(knob => `npm_config_${knob.replace(/-/g, '_')}`), envIgnoresCase: true,
  settings: NPM_FETCH_KNOBS, fast: NPM_FAST } satisfies KnobData

const CONFIG_FILES = {
  names: ['.npmrc (the project\'s)', '~/.npmrc (--userconfig, npm_config_userconfig)', '<prefix>/etc/npmrc (--globalconfig)'],
  find(keys, context) {
    const setting = readNpmrcSetting(keys, context)
    return setting && `${setting.key} in ${setting.origin}`
  },
} satisfies ConfigFiles

const NPMJS_HOST = hostOf(NPM_UPSTREAM)!

/**
 * npm fetches a locked package from its `resolved` URL; only registry.npmjs.org URLs follow --registry
 * (replace-registry-host=npmjs, docs/content/using-npm/config.md). On an attempt that sets a registry, the
 * replaceable pinned hosts follow it too: `--replace-registry-host=<host>` (npm 9+; pacote lib/remote.js and
 * arborist reify.js match the hostname), or `always` when every pinned host may be replaced. A private host stays.
 */
function redirect(command: CommandLine, _registryUrl: string, pinned: readonly PinnedRegistry[]): ReturnType<LockfileSupport['redirect']> {
  const npmjs = (entry: PinnedRegistry) => hostOf(entry.prefix) === NPMJS_HOST
  const candidates = pinned.filter(entry => entry.replaceable && !npmjs(entry))
  if (!candidates.length) return { command, followed: pinned.filter(npmjs).map(entry => entry.prefix) }
  if (pinned.every(entry => entry.replaceable) && (candidates.length > 1 || pinned.some(npmjs))) {
    return { command: addOptions(command, '--replace-registry-host=always'), followed: pinned.map(entry => entry.prefix) }
  }
  // One host: the most used. npm 11 also takes a URL prefix, which keeps a private registry on the same host out.
  const chosen = candidates[0]!
  const shared = pinned.some(entry => !entry.replaceable && hostOf(entry.prefix) === hostOf(chosen.prefix))
  return { command: addOptions(command, `--replace-registry-host=${shared ? chosen.prefix : hostOf(chosen.prefix)}`),
    followed: pinned.filter(entry => shared ? entry === chosen : hostOf(entry.prefix) === hostOf(chosen.prefix)).map(entry => entry.prefix) }
}

export const npm = {
  name: 'npm',
  ecosystem: 'npm',
  nicknames: ['npx'],
  offline: { args: ['--offline'], where: 'the npm cache' },
  environment: registryVariable('npm', 'npm_config_registry', 'NPM_CONFIG_REGISTRY'),
  shimNames: ['npm'],
  executables: /^npm(\.cmd)?$/,
  readOnly: READ_ONLY,
  alternatives: [['npm']],
  defaultIndex: NPM_UPSTREAM,
  // --offline installs from the cache only: no index is involved, so no mirror can help.
  verbs: VERBS,
  classify: args => classifyVerb(firstPositional(args, GLOBAL_WITH_VALUE)?.value, args, VERBS),
  findUserIndex,
  knobs: KNOBS,
  configFiles: CONFIG_FILES,
  // npmmirror answers the audit endpoint with 501 after ~70 s (cnpm/cnpmcore#673): no audit on any mirror.
  applyIndex: (command, url) => addOptions(command, `--registry=${url}`, ...(sameIndex(url, NPM_UPSTREAM) ? [] : ['--no-audit'])),
  passCredentials: withNpmrc,
  packageUrl: npmPackageUrl,
  relay: NPM_RELAY,
  lockfile: {
    format: NPM_LOCKFILE,
    follows: prefix => hostOf(prefix) === NPMJS_HOST,
    redirect,
    consequence: 'npm downloads them from there on every attempt, whatever --registry says; resilient points only public registries and those named in its config at a mirror, never a private one.',
  },
  advice: {
    moreTime: 'npm install --fetch-timeout=120000 --fetch-retries=5',
    mirror: 'npm install --registry=<mirror-url>',
    caBundle: 'npm install --cafile=/path/ca.pem',
    proxy: 'npm config set https-proxy http://host:port',
    noCache: 'npm cache verify, then install again',
    cleanCache: 'npm cache clean --force',
    lookUp: 'npm view <name> versions',
  },
  // --no-save: installed for this run, package.json and the lockfile untouched (npm has the only such switch). npm is
  // never asked to uninstall: `npm uninstall --no-save` prunes every undeclared package with it.
  scriptInstall: { add: names => ['npm', 'install', '--no-save', '--ignore-scripts', '--', ...names], prunesUndeclared: true },
  nodeProject: { lockfiles: ['package-lock.json', 'npm-shrinkwrap.json'], precedence: 5, isDefault: true, packageManager: { name: 'npm' } },
  verified: 'real',
  forms: '`npm install\\|i\\|ci\\|add\\|update ...` (all of npm\'s aliases)',
  testedWith: 'npm 11',
  mirrorMechanism: '`--registry=<mirror> --no-audit` added to the command (and `--replace-registry-host` when package-lock.json pins a public registry)',
} satisfies ToolAdapter
