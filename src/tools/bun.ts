import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseToml as parse } from './config/lazy-parsers.js'
import { NPM_UPSTREAM } from '../mirrors/npm.js'
import { findOptions, firstPositional } from './argv/args.js'
import { addOptions, findEnv, npmPackageUrl } from './npm-family.js'
import { npmrcFiles, npmrcScopeRegistries, readNpmrcSetting } from './config/npmrc.js'
import { bunRelay } from './relay/bun-relay.js'
import { npmrcCredentials } from './relay/npm-relay.js'
import { findRegistryChoice } from './source/npm-registry-choice.js'
import type { CommandLine, IndexChoice, ReadOnlyForms, ToolAdapter, ToolContext } from './types.js'
import { named, versionAndHelp } from './argv/read-only.js'
import { registryVariable } from './config/environment.js'
import { classifyVerb } from './argv/verbs.js'
import { withEnv } from './argv/command-line.js'
import { impliedVerbAdapter, lastLine, typedRegistry } from './program-run.js'

const GLOBAL_WITH_VALUE = ['--cwd', '--config', '-c', '--registry', '--cache-dir', '--backend', '--filter', '-F']
// `bun install --help` (bun 1.4). `bun x` (`bunx`) fetches a package and runs its program (ToolAdapter.program);
// `bun run` and `bun <file>` run programs: once.
const NETWORK = new Set(['install', 'i', 'add', 'a', 'update', 'remove', 'rm', 'outdated', 'info', 'x'])
const VERBS = { network: NETWORK, publish: new Set(['publish']), local: /^--offline$/ }
// Read-only (`bun pm --help`): the installed tree, the bin folder and the cache's path (`pm cache rm` empties it).
const READ_ONLY = {
  leadingFlags: [],
  commands: [...versionAndHelp('--version', '-v', '--revision', '--help', '-h'), ...named(['ls', 'bin'], { under: ['pm'] }),
    { words: ['pm', 'cache'], exact: true }],
  // `bunx pm ls` runs a package named pm.
  executables: /^bun(\.exe)?$/,
} satisfies ReadOnlyForms
const REGISTRY = { long: ['--registry'], takesValue: true }
const CONFIG = { long: ['--config'], short: ['-c'], takesValue: true }

/** The `[install]` tables of bun's config files, in the order bun reads them: the project's bunfig.toml, then the global one. */
function* bunfigInstall({ args, cwd, env, home }: ToolContext): Generator<{ install: Record<string, unknown> | undefined; file: string }> {
  const explicit = findOptions(args, CONFIG).at(-1)?.value
  const files = [explicit ? resolve(cwd, explicit) : join(cwd, 'bunfig.toml'), join(env.XDG_CONFIG_HOME || home, '.bunfig.toml'), join(home, '.bunfig.toml')]
  for (const file of files) {
    try {
      yield { install: parse(readFileSync(file, 'utf8')).install as Record<string, unknown> | undefined, file }
    } catch {
      continue
    }
  }
}

/** `[install] registry = "url"` or `{ url = "...", token = "..." }` in bunfig.toml: the project's, then the global one. */
function bunfigRegistry(context: ToolContext): { value: string; origin: string; token: boolean } | undefined {
  for (const { install, file } of bunfigInstall(context)) {
    const registry = install?.registry
    const url = typeof registry === 'string' ? registry : (registry as { url?: unknown } | undefined)?.url
    const token = typeof registry === 'object' && registry !== null && Boolean((registry as { token?: unknown; password?: unknown }).token ?? (registry as { password?: unknown }).password)
    if (typeof url === 'string' && url) return { value: url, origin: file, token }
  }
  return undefined
}

/** `cafile` or `ca` as bun reads it: its option, then bunfig.toml's `[install]`, then the npmrc files it reads. */
function tlsSetting(context: ToolContext, name: 'cafile' | 'ca'): string | undefined {
  const fromArgs = findOptions(context.args, { long: [`--${name}`], takesValue: true }).at(-1)?.value
  if (fromArgs) return fromArgs
  for (const { install } of bunfigInstall(context)) if (typeof install?.[name] === 'string') return install[name] as string
  return readNpmrcSetting([name], context, npmrcFiles({ ...context, executable: undefined }))?.value
}

/** The credentials bun sends of its own accord (RelayTrust.credentials): the default registry's token, npmrc tokens by host. */
function credentials(context: ToolContext): Record<string, string> {
  const token = findEnv(context.env, ['BUN_CONFIG_TOKEN', 'NPM_CONFIG_TOKEN'])
  const bunfig = bunfigRegistry(context)
  const own = token?.name ?? (bunfig?.token || /\/\/[^/@]+@/.test(bunfig?.value ?? '') ? `a token in ${bunfig!.origin}` : undefined)
  return { ...npmrcCredentials(context, npmrcFiles({ ...context, executable: undefined })), ...(own && { '*': own }) }
}

/**
 * The scope registries bun reads: bunfig.toml's `[install.scopes]` (a URL, or a table with `url`) and npmrc's
 * `@corp:registry`. bun sends a scope there alone, so they are sources beside the index: through the relay, pages
 * then stay on the index (docs/relay.md).
 */
function scopeRegistries(context: ToolContext): string[] {
  const fromBunfig = [...bunfigInstall(context)].flatMap(({ install }) => Object.values((install?.scopes ?? {}) as Record<string, unknown>)
    .flatMap(scope => typeof scope === 'string' ? [scope] : typeof (scope as { url?: unknown })?.url === 'string' ? [(scope as { url: string }).url] : []))
  const fromNpmrc = npmrcScopeRegistries(npmrcFiles({ ...context, executable: undefined }), context.env)
  return [...new Set([...fromBunfig, ...fromNpmrc])]
}

function findUserIndex(context: ToolContext): IndexChoice | null {
  // The three names bun's own tests iterate (npm_config_registry, NPM_CONFIG_REGISTRY, BUN_CONFIG_REGISTRY); a token for the default registry makes it private.
  const token = findEnv(context.env, ['BUN_CONFIG_TOKEN', 'NPM_CONFIG_TOKEN'])
  const bunfig = bunfigRegistry(context)
  const choice = findRegistryChoice(context, { options: [REGISTRY], env: ['BUN_CONFIG_REGISTRY', 'npm_config_registry'], npmrc: npmrcFiles({ ...context, executable: undefined }),
    ownFile: () => bunfig, defaultIndex: NPM_UPSTREAM })
  const credential = token?.name ?? (bunfig?.token ? `token in ${bunfig.origin}` : undefined)
  if (!credential || choice?.privateBecause) return choice
  return { url: choice?.url ?? NPM_UPSTREAM, origin: choice?.origin ?? credential, privateBecause: `you hold credentials for that registry (${credential})` }
}

const classify = (args: readonly string[]) => classifyVerb(firstPositional(args, GLOBAL_WITH_VALUE)?.value, args, VERBS)
const runsProgram = (args: readonly string[]) => firstPositional(args, GLOBAL_WITH_VALUE)?.value === 'x' && classify(args) === 'network'
// bun prints nothing when the program fails, and `error: GET <url> - 503` or `error: ConnectionRefused downloading
// package manifest <name>` when the fetch did.
const PROGRAM = {
  fetchFailed: (output: string) => /^error: (GET \S+ - \d{3}|\w+ downloading (package manifest|tarball) )/.test(lastLine(output)),
  // `bun x` installs the package with a child `bun add <name> --no-summary ...`, then starts the program.
  ownStep: (argv: readonly string[]) => /(^|\/)bunx?(\.exe)?$/.test(argv[0] ?? '') && argv[1] === 'add',
  neverRetried: (args: readonly string[]) => args.includes('--bun') ? 'with --bun the program runs inside bun\'s own process, where its failure cannot be told from the fetch\'s' : undefined,
}
// The variables bunx reads (bun's install options); a --registry appended would go to the program.
const bunxRegistry = (command: CommandLine, url: string) => withEnv(command, { BUN_CONFIG_REGISTRY: url })
const applyIndex = (command: CommandLine, url: string) => runsProgram(command.argv.slice(1)) ? bunxRegistry(command, url) : addOptions(command, `--registry=${url}`)

export const bun = {
  name: 'bun',
  ecosystem: 'npm',
  offline: { args: ['--offline'], where: "bun's install cache" },
  environment: registryVariable('bun', 'BUN_CONFIG_REGISTRY', 'NPM_CONFIG_REGISTRY', 'npm_config_registry'),
  shimNames: ['bun', 'bunx'],
  executables: /^bunx?(\.exe)?$/,
  forExecutable: name => /^bunx(\.exe)?$/.test(name) ? BUNX : undefined,
  readOnly: READ_ONLY,
  alternatives: [['bun']],
  defaultIndex: NPM_UPSTREAM,
  verbs: VERBS,
  classify,
  program: { ...PROGRAM, runs: runsProgram },
  noMirrorReason: context => runsProgram(context.args) ? typedRegistry(context.args) : undefined,
  findUserIndex,
  // "Use a specific registry by default, overriding .npmrc, bunfig.toml and environment variables" (bun install --help).
  applyIndex,
  sourcesBeside: context => scopeRegistries(context).map(url => ({ url, origin: 'a scope\'s registry', merged: false })),
  relay: bunRelay({ read: tlsSetting, credentials, applyIndex }),
  // bun documents no fetch timeout or retry setting: nothing to tune.
  // `bun x` has no --no-cache: appended, it would be the program's argument (the attempt keeps bun's cache then).
  bypassCache: command => command.argv.includes('--no-cache') || runsProgram(command.argv.slice(1)) ? command : addOptions(command, '--no-cache'),
  packageUrl: npmPackageUrl,
  advice: {
    mirror: 'bun install --registry=<mirror-url>',
    caBundle: 'bun install --cafile=/path/ca.pem',
    noCache: 'bun install --no-cache',
    cleanCache: 'bun pm cache rm',
    lookUp: 'bun info <name> versions',
  },
  // Bun never runs a dependency's lifecycle scripts unless it is listed in trustedDependencies.
  scriptInstall: { add: names => ['bun', 'add', '--', ...names], remove: names => ['bun', 'remove', ...names] },
  nodeProject: { lockfiles: ['bun.lockb', 'bun.lock'], precedence: 2, packageManager: { name: 'bun' } },
  verified: 'real',
  forms: '`bun add\\|install\\|i\\|update ...`; `bunx`, `bun x` (the fetch retried, the program run once)',
  testedWith: 'bun 1.4',
  mirrorMechanism: '`--registry=<mirror>` added to the command',
} satisfies ToolAdapter

const bunxClassify = (args: readonly string[]) => args.length && !args.some(arg => /^(-h|--help)$/.test(arg)) ? 'network' as const : 'local' as const
/** `bunx` is `bun x`. */
const BUNX: ToolAdapter = { ...impliedVerbAdapter(bun, { classify: bunxClassify, applyIndex: bunxRegistry, noMirrorReason: context => typedRegistry(context.args),
  program: { ...PROGRAM, runs: args => bunxClassify(args) === 'network' } }), relay: bunRelay({ read: tlsSetting, credentials, applyIndex: bunxRegistry }) }
