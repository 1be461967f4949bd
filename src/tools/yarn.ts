import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { findOptions, firstPositional } from './args.js'
import { countLockedHosts, describeLockedHosts, readLockfile } from './locked-registries.js'
import { guardLockfile, YARN_LOCKFILE } from './lockfile-registry.js'
import { addOptions, findEnv, npmPackageUrl, YARN_REGISTRY } from './npm-family.js'
import { npmrcFiles, readNpmrcSetting } from './npmrc.js'
import type { IndexChoice, ToolAdapter, ToolContext, ToolKnobs } from './types.js'
import { yarnBerry } from './yarn-berry.js'
import { yarnrcSetting } from './yarnrc.js'

// Global commander options with a value (yarn 1 src/cli/index.js); commander takes no abbreviations.
const GLOBAL_WITH_VALUE = ['--registry', '--network-timeout', '--cwd', '--modules-folder', '--cache-folder', '--mutex',
  '--use-yarnrc', '--proxy', '--https-proxy', '--network-concurrency', '--global-folder', '--link-folder', '--preferred-cache-folder', '--otp']
const NETWORK = new Set(['install', 'add', 'upgrade', 'upgrade-interactive', 'outdated', 'info', 'import', 'global'])
const PUBLISH = new Set(['publish', 'login', 'logout', 'owner', 'tag', 'team', 'access'])
const REGISTRY = { long: ['--registry'], takesValue: true }
const TIMEOUT = { long: ['--network-timeout'], takesValue: true }

function findUserIndex(context: ToolContext): IndexChoice | null {
  const flag = findOptions(context.args, REGISTRY).at(-1)
  if (flag?.value) return { url: flag.value, origin: '--registry' }
  // yarn 1 merges YARN_* and npm_config_* variables, case-insensitively (base-registry.js mergeEnv).
  const fromEnv = findEnv(context.env, ['YARN_REGISTRY', 'npm_config_registry'])
  if (fromEnv) return { url: fromEnv.value, origin: fromEnv.name }
  const setting = yarnrcSetting('registry', context) ?? readNpmrcSetting(['registry'], context, npmrcFiles({ ...context, executable: undefined }))
  return setting ? { url: setting.value, origin: setting.origin } : null
}

function findUserKnobs(context: ToolContext): ToolKnobs {
  if (findOptions(context.args, TIMEOUT).length) return { userSet: true, origin: '--network-timeout' }
  const fromEnv = findEnv(context.env, ['YARN_NETWORK_TIMEOUT'])
  if (fromEnv) return { userSet: true, origin: fromEnv.name }
  const setting = yarnrcSetting('network-timeout', context)
  return setting ? { userSet: true, origin: setting.origin } : { userSet: false }
}

function describeLockedSources(context: ToolContext): string | undefined {
  const lock = readLockfile(context.cwd, ['yarn.lock'])
  // A berry lockfile (`__metadata:`) has no URLs.
  if (!lock || lock.text.includes('__metadata:')) return undefined
  const userUrl = findUserIndex(context)?.url
  const userHost = userUrl && URL.canParse(userUrl) ? new URL(userUrl).host : undefined
  const hosts = countLockedHosts(lock.text, /^\s+resolved\s+"?(https?:\/\/[^"\s#]+)/gm, host => host !== userHost)
  return describeLockedHosts(lock.file, hosts, 'yarn 1 downloads locked packages from these URLs whatever --registry says, so a mirror only serves packages not yet in the lockfile.')
}

/** `yarn` may be yarn 1 or berry (2+), even in one folder (a project's yarnPath): the version decides. */
async function resolveVariant(executable: string, env: NodeJS.ProcessEnv): Promise<ToolAdapter> {
  try {
    // Run in the current folder on purpose: a project's .yarnrc.yml or packageManager field picks its own yarn.
    const { stdout } = await promisify(execFile)(executable, ['--version'], { env, timeout: 15_000 })
    const major = Number(/^(\d+)\./m.exec(stdout)?.[1])
    return major >= 2 ? yarnBerry : yarn
  } catch {
    return yarn
  }
}

export const yarn = {
  name: 'yarn',
  ecosystem: 'npm',
  executables: /^(yarn|yarnpkg)(\.cmd|\.js)?$/,
  alternatives: [['yarn'], ['yarnpkg']],
  defaultIndex: YARN_REGISTRY,
  classify(args) {
    const verb = firstPositional(args, GLOBAL_WITH_VALUE)?.value
    if (verb !== undefined && PUBLISH.has(verb)) return 'publish'
    // Bare `yarn` is `yarn install`; `yarn <script>` runs a package.json script once.
    if (verb === undefined) return args.some(arg => /^(-v|--version|-h|--help)$/.test(arg)) ? 'local' : 'network'
    return NETWORK.has(verb) && !args.includes('--offline') ? 'network' : 'local'
  },
  findUserIndex,
  findUserKnobs,
  applyIndex: (command, url) => addOptions(command, '--registry', url),
  // request's timeout covers connect and each read; yarn 1 retries a timed-out GET 5 times, 3 s apart, whatever we
  // say (request-manager.js maxRetryAttempts), so a dead registry still costs 5 × (6 + 3) s.
  tuneForFastDetection: command => addOptions(command, '--network-timeout', '6000'),
  packageUrl: npmPackageUrl,
  describeLockedSources,
  guardLockfile: cwd => guardLockfile(YARN_LOCKFILE, cwd),
  resolveVariant,
  verified: 'real',
  mirrorMechanism: '`--registry <mirror>` added to the command (locked packages keep their yarn.lock URLs)',
} satisfies ToolAdapter
