import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import { YARN_LOCKFILE } from './lockfile/lockfile-formats.js'
import { findOptions } from './argv/args.js'
import { addOptions, findEnv, npmPackageUrl, withTrailingSlash, YARN_REGISTRY } from './npm-family.js'
import { npmrcFiles, npmrcScopeRegistries, readNpmrcSetting } from './config/npmrc.js'
import { yarnRelay } from './relay/yarn-relay.js'
import { findRegistryChoice } from './source/npm-registry-choice.js'
import type { ConfigFiles, IndexChoice, KnobData, ReadOnlyForms, ToolAdapter, ToolContext } from './types.js'
import { yarnBerry } from './yarn-berry.js'
import { yarnFamilyFromFiles, yarnVariantInputs } from './yarn-variant.js'
import { yarnrcSetting } from './config/yarnrc.js'
import { named, versionAndHelp } from './argv/read-only.js'
import { registryVariable } from './config/environment.js'
import { classifyArgs, type VerbTable } from './argv/verbs.js'

// Global commander options with a value (yarn 1 src/cli/index.js); commander takes no abbreviations.
const GLOBAL_WITH_VALUE = ['--registry', '--network-timeout', '--cwd', '--modules-folder', '--cache-folder', '--mutex',
  '--use-yarnrc', '--proxy', '--https-proxy', '--network-concurrency', '--global-folder', '--link-folder', '--preferred-cache-folder', '--otp']
const NETWORK = new Set(['install', 'add', 'upgrade', 'upgrade-interactive', 'outdated', 'info', 'import', 'global'])
const PUBLISH = new Set(['publish', 'login', 'logout', 'owner', 'tag', 'team', 'access'])
// Bare `yarn` is `yarn install`; `yarn <script>` runs a package.json script once.
const VERBS = { network: NETWORK, publish: PUBLISH, bare: 'network', local: /^(-v|--version|-h|--help|--offline)$/,
  syntax: { optionsWithValue: GLOBAL_WITH_VALUE } } satisfies VerbTable
// Read-only in yarn 1 and berry alike (the shim cannot tell them apart): built-ins beat package.json scripts in
// both, so `why` and `bin` never run a script; yarn 1's `info` asks the registry and `list` is a script name in berry.
const READ_ONLY = {
  leadingFlags: [],
  commands: [...versionAndHelp('--version', '-v', '--help', '-h'), ...named(['why', 'bin']), ...named(['get'], { under: ['config'] })],
} satisfies ReadOnlyForms
const REGISTRY = { long: ['--registry'], takesValue: true }

const CWD = { long: ['--cwd'], takesValue: true }

function findUserIndex(given: ToolContext): IndexChoice | null {
  // `--cwd <dir>`: yarn 1 reads .yarnrc and .npmrc from there (config.cwd), not from where it was started.
  const cwdOption = findOptions(given.args, CWD).at(-1)?.value
  const context = cwdOption ? { ...given, cwd: resolve(given.cwd, cwdOption) } : given
  // yarn 1 merges YARN_* and npm_config_* variables, case-insensitively (base-registry.js mergeEnv), and sends an
  // unscoped `_auth` from .npmrc to any registry: findRegistryChoice makes that registry private.
  return findRegistryChoice(context, { options: [REGISTRY], env: ['YARN_REGISTRY', 'npm_config_registry'], npmrc: npmrcFiles({ ...context, executable: undefined }),
    ownFile: () => yarnrcSetting('registry', context), defaultIndex: YARN_REGISTRY })
}

const yarnNpmrcFiles = (context: ToolContext) => npmrcFiles({ ...context, executable: undefined })

/** One of yarn 1's settings: its option, then YARN_ and npm_config_ variables (any case), .yarnrc, the npmrc files. */
function setting(context: ToolContext, name: string): string | undefined {
  const fromArgs = findOptions(context.args, { long: [`--${name}`], takesValue: true }).at(-1)?.value
  if (fromArgs) return fromArgs
  const variable = name.replace(/-/g, '_')
  return findEnv(context.env, [`YARN_${variable}`, `npm_config_${variable}`])?.value ?? yarnrcSetting(name, context)?.value
    ?? readNpmrcSetting([name], context, yarnNpmrcFiles(context))?.value
}

/** The scope registries yarn 1 reads (`@corp:registry`): its variables, .yarnrc (the key as a pattern), the npmrc files. */
function scopeRegistries(context: ToolContext): string[] {
  const fromEnv = Object.entries(context.env).flatMap(([name, value]) => /^(npm_config_|yarn_)@[^:]+:registry$/i.test(name) && value ? [value] : [])
  const fromYarnrc = yarnrcSetting('@[^:"\\s]+:registry', context)?.value
  const fromNpmrc = npmrcScopeRegistries(yarnNpmrcFiles(context), context.env)
  return [...fromEnv, ...(fromYarnrc ? [fromYarnrc] : []), ...fromNpmrc]
}

// request's timeout covers connect and each read; yarn 1 retries a timed-out GET 5 times, 3 s apart, whatever we
// say (request-manager.js maxRetryAttempts), so a dead registry still costs 5 × (6 + 3) s.
const KNOBS = { options: { long: ['--network-timeout'], takesValue: true }, env: ['YARN_NETWORK_TIMEOUT'], envIgnoresCase: true,
  settings: ['network-timeout'] } satisfies KnobData

const CONFIG_FILES = {
  names: ['.yarnrc (--use-yarnrc, from the project folder up, ~/.yarnrc)', '.npmrc (registry and auth)'],
  find: (keys, context) => keys.map(key => yarnrcSetting(key, context)?.origin).find(Boolean),
} satisfies ConfigFiles

/**
 * `yarn` may be yarn 1 or berry (2+), even in one folder (a project's yarnPath): the version decides. Rejects when
 * yarn does not say (a start that failed or outlasted the timeout on a busy machine, output without a version): the
 * caller then takes yarn 1 for this run only and never keeps that as the answer.
 */
async function resolveVariant(executable: string, env: NodeJS.ProcessEnv): Promise<ToolAdapter> {
  // Run in the current folder on purpose: a project's .yarnrc.yml or packageManager field picks its own yarn.
  const { stdout } = await promisify(execFile)(executable, ['--version'], { env, timeout: 15_000 })
  const major = Number(/^(\d+)\./m.exec(stdout)?.[1])
  if (!Number.isInteger(major)) throw new Error(`yarn --version said no version: ${JSON.stringify(stdout.slice(0, 80))}`)
  return major >= 2 ? yarnBerry : yarn
}

export const yarn = {
  name: 'yarn',
  ecosystem: 'npm',
  offline: { args: ['--offline'], where: 'the yarn cache' },
  environment: registryVariable('yarn 1', 'YARN_REGISTRY', 'npm_config_registry'),
  shimNames: ['yarn'],
  executables: /^(yarn|yarnpkg)(\.cmd|\.js)?$/,
  readOnly: READ_ONLY,
  alternatives: [['yarn'], ['yarnpkg']],
  defaultIndex: YARN_REGISTRY,
  verbs: VERBS,
  classify: args => classifyArgs(args, VERBS),
  findUserIndex,
  knobs: KNOBS,
  configFiles: CONFIG_FILES,
  applyIndex: (command, url) => addOptions(command, '--registry', url),
  relay: yarnRelay({ read: setting, files: yarnNpmrcFiles, scopes: scopeRegistries, applyIndex: (command, url) => addOptions(command, '--registry', url) }),
  packageUrl: npmPackageUrl,
  // yarn 1 uses every `resolved` URL verbatim (yarnpkg/yarn#3330): for an attempt on a mirror, yarn.lock's
  // replaceable registries point at the mirror, and are put back byte for byte after it (src/tools/lockfile/lockfile-rewrite.ts).
  lockfile: {
    format: YARN_LOCKFILE,
    follows: () => false,
    redirect: (command, registryUrl, pinned, file) => {
      const from = pinned.filter(entry => entry.replaceable).map(entry => entry.prefix)
      return { command, followed: from, ...(from.length && { rewrite: { file, from, to: withTrailingSlash(registryUrl) } }) }
    },
    consequence: 'yarn 1 downloads them from there on every attempt; resilient points only public registries and those named in its config at a mirror, never a private one.',
  },
  advice: {
    moreTime: 'yarn install --network-timeout 600000',
    mirror: 'yarn install --registry <mirror-url>',
    caBundle: 'YARN_CAFILE=/path/ca.pem yarn install',
    proxy: 'yarn install --https-proxy http://host:port',
    noCache: 'yarn cache clean <name>, then install again',
    cleanCache: 'yarn cache clean',
    lookUp: 'yarn info <name> versions',
  },
  resolveVariant,
  variantFromFiles(executable: string, context: ToolContext): ToolAdapter | undefined {
    const family = yarnFamilyFromFiles(executable, context)
    return family && (family === 'berry' ? yarnBerry : yarn)
  },
  variantCache: { variants: [yarnBerry], inputs: yarnVariantInputs },
  scriptInstall: { add: names => ['yarn', 'add', '--ignore-scripts', ...names], remove: names => ['yarn', 'remove', ...names] },
  nodeProject: { lockfiles: ['yarn.lock'], precedence: 4, packageManager: { name: 'yarn', majors: { below: 2 } } },
  verified: 'real',
  forms: '`yarn`, `yarn add\\|install\\|upgrade ...` (1.x, told apart by the package `yarn` belongs to, or by `yarn --version`)',
  testedWith: 'yarn 1.22',
  mirrorMechanism: '`--registry <mirror>` added to the command; for that attempt only, yarn.lock URLs of public registries point at the mirror (restored byte for byte after it)',
} satisfies ToolAdapter
