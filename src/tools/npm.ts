import { NPM_UPSTREAM } from '../mirrors/npm.js'
import { NPM_RELAY, npmPatience } from './relay/npm-relay.js'
import { firstPositional } from './argv/args.js'
import { hostOf, labelOf, sameIndex } from '../url.js'
import { NPM_LOCKFILE } from './lockfile/lockfile-formats.js'
import { NPM_FETCH_KNOBS, NPM_KNOB_OPTION, npmPackageUrl, REGISTRY_OPTION } from './npm-family.js'
import { addNpmOptions, NPM_GLOBAL_WITH_VALUE, npmVerbOf } from './argv/npm-options.js'
import { readNpmrcFiles, readNpmrcSetting } from './config/npmrc.js'
import { npmConfigFiles, npmProjectDir } from './config/npm-config-files.js'
import { npmLookAhead } from './relay/npm-look-ahead.js'
import { NPM_SOURCE } from './source/npm-source.js'
import { withNpmrc } from './source/credentials.js'
import { findRegistryChoice } from './source/npm-registry-choice.js'
import type { CommandLine, ConfigFiles, IndexChoice, KnobData, LockfileSupport, PinnedRegistry, ProgramRun, ReadOnlyForms, ToolAdapter, ToolContext } from './types.js'
import { named, versionAndHelp } from './argv/read-only.js'
import { registryVariable } from './config/environment.js'
import { classifyVerb } from './argv/verbs.js'
import { impliedVerbAdapter, lastLine, registryInEnvironment, typedRegistry } from './program-run.js'

// Aliases from npm's lib/utils/cmd-list.js: installs, clean installs, updates, and read-only queries.
const NETWORK = new Set(['install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'isntall', 'add',
  'ci', 'clean-install', 'ic', 'install-clean', 'isntall-clean', 'install-test', 'it', 'install-ci-test', 'cit', 'sit',
  'update', 'u', 'up', 'upgrade', 'udpate', 'dedupe', 'ddp', 'outdated', 'view', 'info', 'show', 'v', 'exec', 'x'])
// A mirror must never see credentials or uploads.
const PUBLISH = new Set(['publish', 'unpublish', 'login', 'logout', 'adduser', 'add-user', 'owner', 'author', 'dist-tag',
  'dist-tags', 'deprecate', 'undeprecate', 'access', 'token', 'team', 'org', 'star', 'unstar', 'stars', 'whoami', 'trust', 'profile', 'hook'])
const VERBS = { network: NETWORK, publish: PUBLISH, local: /^--offline$/ }

// The verbs that resolve a tree from packuments (lib/utils/cmd-list.js aliases); `ci` reads its lockfile only.
const RESOLVES = new Set(['install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'isntall', 'add',
  'install-test', 'it'])

/** What the relay fetches ahead for this command: an install's packages and its project's (none in global mode). */
function lookAhead(context: ToolContext) {
  const verb = firstPositional(context.args, NPM_GLOBAL_WITH_VALUE)
  if (!verb || !RESOLVES.has(verb.value)) return undefined
  const specs: string[] = []
  for (let rest = context.args.slice(verb.index + 1), next = firstPositional(rest, NPM_GLOBAL_WITH_VALUE); next; rest = rest.slice(next.index + 1), next = firstPositional(rest, NPM_GLOBAL_WITH_VALUE)) specs.push(next.value)
  return npmLookAhead(npmProjectDir(context), context.cwd, specs)
}

/**
 * npm prints nothing of its own when the program it ran fails (its status is npm's), and its error block ("npm error
 * code E503" ... "A complete log of this run ...") when npm itself failed, before anything ran.
 */
const fetchFailed = (output: string) => /^npm (error|ERR!)/.test(lastLine(output))
const PROGRAM = { runs: args => ['exec', 'x'].includes(npmVerbOf(args) ?? '') && !args.includes('--offline'), fetchFailed } satisfies ProgramRun

// npx takes its own options up to the package name, and gives the program everything after it (bin/npx-cli.js).
const NPX_LOCAL = /^(-v|--version|-h|--help|--offline)$/
const npxClassify = (args: readonly string[]) => args.length && !args.some(arg => NPX_LOCAL.test(arg)) ? 'network' as const : 'local' as const

// Read-only (lib/utils/cmd-list.js): listing, explaining and reading config; `config set` and every script run go through.
const READ_ONLY = {
  leadingFlags: ['-g', '--global', '--json', '-s', '--silent', '-q', '--quiet', '-l', '--long', '-p', '--parseable', '--no-color'],
  commands: [...versionAndHelp('--version', '-v', '--help', '-h'),
    ...named(['ls', 'list', 'll', 'la', 'explain', 'why', 'prefix', 'root', 'query', 'help', 'help-search', 'get']),
    ...named(['get', 'list', 'ls'], { under: ['config'] }), ...named(['get', 'list', 'ls'], { under: ['c'] })],
  // `npx ls` runs a package named ls.
  executables: /^npm(\.cmd)?$/,
} satisfies ReadOnlyForms

function findUserIndex(context: ToolContext): IndexChoice | null {
  return findRegistryChoice(context, { options: [REGISTRY_OPTION], env: ['npm_config_registry'], npmrc: npmConfigFiles(context).files, defaultIndex: NPM_UPSTREAM })
}

// npm reads every setting from the command line, npm_config_* in any case, then the npmrc files (npm config.md).
const KNOBS = { options: NPM_KNOB_OPTION, env: NPM_FETCH_KNOBS.map(knob => `npm_config_${knob.replace(/-/g, '_')}`), envIgnoresCase: true,
  settings: NPM_FETCH_KNOBS } satisfies KnobData

const CONFIG_FILES = {
  names: ['.npmrc (the project\'s)', '~/.npmrc (--userconfig, npm_config_userconfig)', '<prefix>/etc/npmrc (--globalconfig)'],
  find(keys, context) {
    const setting = readNpmrcSetting(keys, context, npmConfigFiles(context).files)
    return setting && `${setting.key} in ${setting.origin}`
  },
} satisfies ConfigFiles

const NPMJS_HOST = hostOf(NPM_UPSTREAM)!

/**
 * npm fetches a locked package from its `resolved` URL; only registry.npmjs.org URLs follow --registry
 * (replace-registry-host=npmjs, docs/content/using-npm/config.md). On an attempt that sets a registry, the
 * replaceable pinned hosts follow it too with `--replace-registry-host`: npm 9-11 match it against the host *name* of
 * every resolved URL, scoped packages' included (arborist reify.js; npm 11 takes a URL too, but ignores its port, and
 * its path only narrows it when not `/`). So it names a host only when no private registry, pinned or configured
 * for a scope, has that host name, and is `always` only when there is no private registry at all.
 */
function redirect(command: CommandLine, _registryUrl: string, pinned: readonly PinnedRegistry[], _file: string, keepOut: readonly string[]): ReturnType<LockfileSupport['redirect']> {
  const npmjs = (entry: PinnedRegistry) => hostOf(entry.prefix) === NPMJS_HOST
  const candidates = pinned.filter(entry => entry.replaceable && !npmjs(entry))
  if (!candidates.length) return { command, followed: pinned.filter(npmjs).map(entry => entry.prefix) }
  if (!keepOut.length && (candidates.length > 1 || pinned.some(npmjs))) {
    return { command: addNpmOptions(command, '--replace-registry-host=always'), followed: pinned.map(entry => entry.prefix) }
  }
  const sharing = (entry: PinnedRegistry) => keepOut.filter(url => hostOf(url) === hostOf(entry.prefix))
  const blocked = candidates.filter(entry => sharing(entry).length)
  const declined = blocked.length ? `${[...new Set(blocked.map(entry => labelOf(entry.prefix)))].join(', ')} shares its host name with your private registry ${[...new Set(blocked.flatMap(sharing).map(labelOf))].join(', ')}, and npm's --replace-registry-host matches host names: it is not redirected, so a mirror attempt still downloads from it` : undefined
  // One host: the most used that no private registry shares.
  const chosen = candidates.find(entry => !sharing(entry).length)
  if (!chosen) return { command, followed: pinned.filter(npmjs).map(entry => entry.prefix), ...(declined && { declined }) }
  return { command: addNpmOptions(command, `--replace-registry-host=${hostOf(chosen.prefix)}`),
    followed: pinned.filter(entry => hostOf(entry.prefix) === hostOf(chosen.prefix)).map(entry => entry.prefix), ...(declined && { declined }) }
}

const SCOPE_REGISTRY = /^@[^:=/\s]+:registry$/i

/** `@scope:registry` from the command line, npm_config_* variables and the npmrc files npm reads. */
function scopedRegistries(context: ToolContext): string[] {
  const fromArgs = context.args.flatMap(arg => /^-+(@[^:=\s]+:registry)=(.+)$/i.exec(arg)?.[2] ?? [])
  const fromEnv = Object.entries(context.env).flatMap(([name, value]) => /^npm_config_@[^:]+:registry$/i.test(name) && value ? [value] : [])
  const fromFiles = readNpmrcFiles(npmConfigFiles(context).files, context.env).flatMap(read => 'settings' in read ? [...read.settings].filter(([key]) => SCOPE_REGISTRY.test(key)).map(([, value]) => value) : [])
  return [...new Set([...fromArgs, ...fromEnv, ...fromFiles])]
}

export const npm = {
  name: 'npm',
  ecosystem: 'npm',
  forExecutable: name => /^npx(\.cmd)?$/.test(name) ? NPX : undefined,
  offline: { args: ['--offline'], where: 'the npm cache' },
  environment: registryVariable('npm', 'npm_config_registry', 'NPM_CONFIG_REGISTRY'),
  shimNames: ['npm', 'npx'],
  executables: /^(npm|npx)(\.cmd)?$/,
  readOnly: READ_ONLY,
  alternatives: [['npm']],
  defaultIndex: NPM_UPSTREAM,
  // --offline installs from the cache only: no index is involved, so no mirror can help.
  verbs: VERBS,
  classify: args => classifyVerb(npmVerbOf(args), args, VERBS),
  program: PROGRAM,
  findUserIndex,
  source: NPM_SOURCE,
  knobs: KNOBS,
  configFiles: CONFIG_FILES,
  // npmmirror answers the audit endpoint with 501 after ~70 s (cnpm/cnpmcore#673): no audit on any mirror.
  applyIndex: (command, url) => addNpmOptions(command, `--registry=${url}`, ...(sameIndex(url, NPM_UPSTREAM) ? [] : ['--no-audit'])),
  passCredentials: withNpmrc,
  packageUrl: npmPackageUrl,
  // A scope's registry: npm sends that scope there alone, so mirrors may still serve the rest; the relay's pages stay on the index.
  patience: npmPatience,
  sourcesBeside: context => scopedRegistries(context).map(url => ({ url, origin: 'a scope\'s registry', merged: false })),
  relay: { ...NPM_RELAY, lookAhead, trust: context => ({ ...NPM_RELAY.trust(context), otherRegistries: scopedRegistries(context) }) },
  lockfile: {
    format: NPM_LOCKFILE,
    follows: prefix => hostOf(prefix) === NPMJS_HOST,
    redirect,
    scopedRegistries,
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
  forms: '`npm install\\|i\\|ci\\|add\\|update ...` (all of npm\'s aliases); `npx`, `npm exec\\|x\\|create`, `npm init <initializer>` (the fetch retried, the program run once)',
  testedWith: 'npm 11',
  mirrorMechanism: '`--registry=<mirror> --no-audit` added to the command (and `--replace-registry-host` when package-lock.json pins a public registry)',
} satisfies ToolAdapter

// npm's audit endpoint is not mirrored (npmmirror answers it after ~70 s): off on every mirror, as for an install.
const npxRegistry = (command: CommandLine, url: string) =>
  registryInEnvironment(command, ['npm_config_registry'], url, sameIndex(url, NPM_UPSTREAM) ? {} : { npm_config_audit: 'false' })

/** `npx`: `npm exec` whose options end at the package name; the registry goes in the environment. */
const NPX: ToolAdapter = impliedVerbAdapter(npm, { classify: npxClassify, applyIndex: npxRegistry, noMirrorReason: context => typedRegistry(context.args),
  program: { runs: args => npxClassify(args) === 'network', fetchFailed } })
