import { NPM_UPSTREAM } from '../mirrors/npm.js'
import { findOptions, firstPositional } from './argv/args.js'
import { pnpmRelay, PNPM_FETCH } from './relay/pnpm-relay.js'
import { npmStylePatience } from './relay/npm-relay.js'
import { addOptions, findEnv, NPM_FETCH_KNOBS, NPM_KNOB_OPTION, npmPackageUrl, PNPM_CONFIG_REGISTRY, REGISTRY_OPTION } from './npm-family.js'
import { withNpmrc, type SecretsContext, type UserNpmrc } from './source/credentials.js'
import type { SplitUrl } from '../redact.js'
import { findRegistryChoice } from './source/npm-registry-choice.js'
import { npmrcScopeRegistries, readNpmrcSetting } from './config/npmrc.js'
import { pnpmEnvNames, pnpmMajorHere, pnpmrcFiles, pnpmUserNpmrc, workspaceSetting } from './config/pnpm-config.js'
import { pnpmReadsFromNpmrc } from './config/pnpm-major.js'
import type { CommandLine, ConfigFiles, IndexChoice, KnobData, ReadOnlyForms, ToolAdapter, ToolContext } from './types.js'
import { named, versionAndHelp } from './argv/read-only.js'
import { registryVariable } from './config/environment.js'
import { classifyVerb } from './argv/verbs.js'
import { impliedVerbAdapter, registryInEnvironment, typedRegistry } from './program-run.js'

const GLOBAL_WITH_VALUE = ['--registry', '--reg', '--dir', '-C', '--filter', '-F', '--reporter', '--loglevel', '--store-dir',
  '--workspace-dir', ...NPM_FETCH_KNOBS.map(knob => `--${knob}`)]
// pnpm's docs/cli: installs and updates talk to the registry; `dlx` and `create` fetch a package and run its program
// (ToolAdapter.program); `exec` runs a program already installed, once.
const NETWORK = new Set(['install', 'i', 'add', 'update', 'up', 'upgrade', 'fetch', 'import', 'dedupe', 'outdated', 'view', 'info', 'dlx', 'create'])
const FETCH_AND_RUN = new Set(['dlx', 'create'])
const PUBLISH = new Set(['publish', 'login', 'logout', 'adduser', 'dist-tag', 'deprecate', 'unpublish', 'owner', 'whoami', 'token', 'access'])
const VERBS = { network: NETWORK, publish: PUBLISH, local: /^--offline$/ }
// Read-only (pnpm's docs/cli): listing, explaining, paths and reading config.
const READ_ONLY = {
  leadingFlags: ['-g', '--global', '-r', '--recursive', '--json', '-s', '--silent'],
  commands: [...versionAndHelp('--version', '-v', '--help', '-h'), ...named(['list', 'ls', 'll', 'la', 'why', 'root', 'bin', 'help']),
    ...named(['get', 'list'], { under: ['config'] }), ...named(['path'], { under: ['store'] })],
  // `pnpx list` runs a package named list.
  executables: /^pnpm(\.cmd|\.cjs)?$/,
} satisfies ReadOnlyForms
/**
 * The relay's or a mirror's credentials for one attempt, in a copy of the user npmrc pnpm reads: given as
 * pnpm_config_npmrc_auth_file to pnpm 11+, which would otherwise take a pnpm_config_userconfig or config.yaml's
 * `npmrcAuthFile` before npm_config_userconfig, and as npm_config_userconfig to pnpm ≤10, which reads no other.
 */
export const PNPM_USER_NPMRC: UserNpmrc = { own: env => pnpmUserNpmrc(env), variables: ['npm_config_userconfig', 'pnpm_config_npmrc_auth_file'] }
const withPnpmNpmrc = (command: CommandLine, credentials: SplitUrl, secrets: SecretsContext) => withNpmrc(command, credentials, secrets, PNPM_USER_NPMRC)

function findUserIndex(context: ToolContext): IndexChoice | null {
  return findRegistryChoice(context, { options: [REGISTRY_OPTION, PNPM_CONFIG_REGISTRY], env: pnpmEnvNames('registry', context), npmrc: pnpmrcFiles(context),
    ownFile: () => workspaceSetting(['registry'], context), defaultIndex: NPM_UPSTREAM })
}

const OPTION = (name: string) => ({ long: [`--${name}`], takesValue: true, anyDashes: true })

/** The first of `keys` in the npmrc files, among those pnpm's major reads from them (registry and auth only, from 11). */
const npmrcSetting = (keys: readonly string[], context: ToolContext) => {
  const major = pnpmMajorHere(context)
  const read = keys.filter(key => pnpmReadsFromNpmrc(key, major))
  return read.length ? readNpmrcSetting(read, context, pnpmrcFiles(context)) : undefined
}

/** One of npm's settings as pnpm reads it: its command line, then its variables, pnpm-workspace.yaml, its npmrc files. */
function setting(context: ToolContext, name: string): string | undefined {
  const fromArgs = findOptions(context.args, OPTION(name)).at(-1)
  if (fromArgs) return fromArgs.value ?? 'true'
  if (context.args.includes(`--no-${name}`)) return 'false'
  return findEnv(context.env, pnpmEnvNames(name.replace(/-/g, '_'), context))?.value ?? workspaceSetting([name], context)?.value
    ?? npmrcSetting([name], context)?.value
}

/**
 * The scope registries pnpm reads (`@corp:registry`): its options, variables and npmrc files. pnpm sends a scope's
 * packuments and tarballs there alone, so they are sources beside the index: through the relay, pages then stay on
 * the index (docs/relay.md). npm_config_ ones count for every major: a private scope is kept from mirrors either way.
 */
function scopeRegistries(context: ToolContext): string[] {
  const fromArgs = context.args.flatMap(arg => /^-+@[^:=\s]+:registry=(.+)$/i.exec(arg)?.[1] ?? [])
  const fromEnv = Object.entries(context.env).flatMap(([name, value]) => /^(npm|pnpm)_config_@[^:]+:registry$/i.test(name) && value ? [value] : [])
  const fromFiles = npmrcScopeRegistries(pnpmrcFiles(context), context.env)
  return [...new Set([...fromArgs, ...fromEnv, ...fromFiles])]
}

// Both spellings, whatever the major: a knob taken as the person's own only leaves fewer attempts before pnpm's timeout.
const KNOBS = { options: NPM_KNOB_OPTION, env: NPM_FETCH_KNOBS.flatMap(knob => [`pnpm_config_${knob.replace(/-/g, '_')}`, `npm_config_${knob.replace(/-/g, '_')}`]), envIgnoresCase: true,
  settings: NPM_FETCH_KNOBS } satisfies KnobData

const CONFIG_FILES = {
  names: ['pnpm-workspace.yaml', '~/.config/pnpm/config.yaml (11.x)', '.npmrc and ~/.npmrc (pnpm ≤10)', '~/.config/pnpm/rc'],
  find: (keys, context) => (workspaceSetting(keys, context) ?? npmrcSetting(keys, context))?.origin,
} satisfies ConfigFiles

const classify = (args: readonly string[]) => classifyVerb(firstPositional(args, GLOBAL_WITH_VALUE)?.value, args, VERBS)
// pnpm prints nothing when the program fails (its status is pnpm's), and ` ERR_PNPM_FETCH_503  GET ...` when the
// fetch did; a few lines of context may follow its error header.
const fetchFailed = (output: string) => /^\s*ERR_PNPM_\w+/m.test(output.trimEnd().split('\n').slice(-6).join('\n'))
/**
 * pnpm 12 (native) asks the Node.js on PATH for its version (`node --version`) before it fetches anything, for every
 * command, `pnpm dlx` included (seen with strace -f on pnpm 12.26's `pnpm dlx`); that child is pnpm's, not the
 * program's: the program runs as a package's bin, never as `node --version` alone.
 */
const ownStep = (argv: readonly string[]) => argv.length === 2 && /(^|\/)node(\.exe)?$/.test(argv[0] ?? '') && argv[1] === '--version'
const runsProgram = (args: readonly string[]) => FETCH_AND_RUN.has(firstPositional(args, GLOBAL_WITH_VALUE)?.value ?? '') && classify(args) === 'network'
// `pnpm dlx --registry` is refused ("Unknown option"): the variables, which pnpm ≤10 and 11 read respectively.
const registryVariables = (command: CommandLine, url: string) => registryInEnvironment(command, ['npm_config_registry', 'pnpm_config_registry'], url)
const applyIndex = (command: CommandLine, url: string) => runsProgram(command.argv.slice(1)) ? registryVariables(command, url) : addOptions(command, `--registry=${url}`)

export const pnpm = {
  name: 'pnpm',
  ecosystem: 'npm',
  offline: { args: ['--offline'], where: 'the pnpm store' },
  environment: registryVariable('pnpm', 'pnpm_config_registry', 'npm_config_registry'),
  shimNames: ['pnpm', 'pnpx'],
  executables: /^(pnpm|pnpx)(\.cmd|\.cjs)?$/,
  forExecutable: name => /^pnpx(\.cmd|\.cjs)?$/.test(name) ? PNPX : undefined,
  readOnly: READ_ONLY,
  alternatives: [['pnpm']],
  defaultIndex: NPM_UPSTREAM,
  verbs: VERBS,
  classify,
  program: { runs: runsProgram, fetchFailed, ownStep },
  noMirrorReason: context => runsProgram(context.args) ? typedRegistry(context.args) : undefined,
  findUserIndex,
  knobs: KNOBS,
  configFiles: CONFIG_FILES,
  // A flag, not env: pnpm 11 ignores npm_config_registry, and pnpm_config_registry means nothing to pnpm ≤10.
  // pnpm-lock.yaml keeps no tarball URL for registry packages, so a mirror leaves the lockfile unchanged.
  applyIndex,
  passCredentials: withPnpmNpmrc,
  patience: context => npmStylePatience(context, setting, PNPM_FETCH),
  sourcesBeside: context => scopeRegistries(context).map(url => ({ url, origin: 'a scope\'s registry', merged: false })),
  relay: pnpmRelay({ read: setting, files: pnpmrcFiles, applyIndex, userNpmrc: PNPM_USER_NPMRC }),
  packageUrl: npmPackageUrl,
  advice: {
    moreTime: 'pnpm install --fetch-timeout=120000 --fetch-retries=5',
    mirror: 'pnpm install --registry=<mirror-url>',
    caBundle: 'pnpm install --cafile=/path/ca.pem',
    proxy: 'https-proxy=http://host:port in .npmrc',
    noCache: 'pnpm store prune, then install again',
    cleanCache: 'pnpm store prune',
    lookUp: 'pnpm view <name> versions',
  },
  scriptInstall: { add: names => ['pnpm', 'add', '--ignore-scripts', '--', ...names], remove: names => ['pnpm', 'remove', ...names] },
  nodeProject: { lockfiles: ['pnpm-lock.yaml'], precedence: 1, packageManager: { name: 'pnpm' } },
  verified: 'real',
  forms: '`pnpm add\\|install\\|i\\|update\\|fetch ...`; `pnpm dlx\\|create`, `pnpx` (the fetch retried, the program run once)',
  testedWith: 'pnpm 10; 11 and 12: the relay and dlx',
  mirrorMechanism: '`--registry=<mirror>` added to the command',
} satisfies ToolAdapter

const pnpxClassify = (args: readonly string[]) => args.length && !args.some(arg => /^(-h|--help|-v|--version)$/.test(arg)) ? 'network' as const : 'local' as const
/** `pnpx` is `pnpm dlx`. */
const PNPX: ToolAdapter = { ...impliedVerbAdapter(pnpm, { classify: pnpxClassify, applyIndex: registryVariables, noMirrorReason: context => typedRegistry(context.args),
  program: { runs: args => pnpxClassify(args) === 'network', fetchFailed, ownStep } }), relay: pnpmRelay({ read: setting, files: pnpmrcFiles, applyIndex: registryVariables, userNpmrc: PNPM_USER_NPMRC }) }
