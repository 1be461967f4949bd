import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { findEnv, npmPackageUrl, YARN_REGISTRY } from './npm-family.js'
import type { ConfigFiles, IndexChoice, KnobData, ToolAdapter, ToolContext } from './types.js'
import { readYamlFile } from './config/yaml-file.js'
import { registryVariable } from './config/environment.js'
import { classifyArgs, findVerb, type VerbTable } from './argv/verbs.js'
import { lastLine } from './program-run.js'
import { yarnBerryRelay } from './relay/yarn-berry-relay.js'

// berry's plugin-npm and yarnpkg-core Configuration.ts. `dlx` fetches a package and runs its program (ToolAdapter.
// program); `set version` downloads yarn itself from elsewhere: it runs once. Bare `yarn` is `yarn install`.
// `yarn npm audit` goes to the audit registry, which a mirror lacks: it runs once.
const VERBS = {
  network: new Set(['install', 'add', 'up', 'upgrade', 'dedupe', 'npm info', 'workspaces focus', 'dlx']),
  publish: new Set(['npm publish', 'npm login', 'npm logout', 'npm tag', 'npm whoami']),
  bare: 'network', local: /^(-v|--version|-h|--help|--offline)$/,
  syntax: { optionsWithValue: ['--cwd'], groups: new Set(['npm', 'workspaces']) },
} satisfies VerbTable
// Settings as env: YARN_ + SCREAMING_SNAKE of the name; berry lower-cases env keys (Configuration.ts getEnvironmentSettings).
const REGISTRY_ENV = 'YARN_NPM_REGISTRY_SERVER'
const KNOB_VARIABLES = { httpTimeout: 'YARN_HTTP_TIMEOUT', httpRetry: 'YARN_HTTP_RETRY' }

/** `.yarnrc.yml` files, nearest first: the project's and its parents', then the home folder's (lowest). */
function rcFiles({ cwd, env, home }: ToolContext): string[] {
  const name = findEnv(env, ['YARN_RC_FILENAME'])?.value ?? '.yarnrc.yml'
  const files: string[] = []
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, name))) files.push(join(dir, name))
    if (dirname(dir) === dir) break
  }
  return [...files, join(home, name)]
}

function rcSetting(keys: readonly string[], context: ToolContext): { key: string; value: string; origin: string } | undefined {
  for (const file of rcFiles(context)) {
    const data = readYamlFile(file)
    for (const key of keys) {
      const value = data?.[key]
      if (typeof value === 'string' || typeof value === 'number') return { key, value: String(value), origin: file }
    }
  }
  return undefined
}

/** Any berry setting as berry reads it: YARN_<SCREAMING_SNAKE> (any case), then the .yarnrc.yml files, nearest first. */
function berrySetting(context: ToolContext, name: string): { value: unknown; origin: string } | undefined {
  const variable = `YARN_${name.replace(/[A-Z]/g, letter => `_${letter}`).toUpperCase()}`
  const fromEnv = findEnv(context.env, [variable])
  if (fromEnv) return { value: fromEnv.value, origin: fromEnv.name }
  for (const file of rcFiles(context)) {
    const value = readYamlFile(file)?.[name]
    if (value !== undefined && value !== null) return { value, origin: file }
  }
  return undefined
}

function findUserIndex(context: ToolContext): IndexChoice | null {
  const fromEnv = findEnv(context.env, [REGISTRY_ENV])
  if (fromEnv) return { url: fromEnv.value, origin: fromEnv.name }
  const fromFile = rcSetting(['npmRegistryServer'], context)
  return fromFile ? { url: fromFile.value, origin: fromFile.origin } : null
}

// httpTimeout is a socket idle timeout (got's timeout.socket).
const KNOBS = { env: Object.values(KNOB_VARIABLES), envIgnoresCase: true, settings: Object.keys(KNOB_VARIABLES) } satisfies KnobData

const CONFIG_FILES = {
  names: ['.yarnrc.yml (YARN_RC_FILENAME; from the project folder up, then the home folder)'],
  find(keys, context) {
    const setting = rcSetting(keys, context)
    return setting && `${setting.key} in ${setting.origin}`
  },
} satisfies ConfigFiles

const runsProgram = (args: readonly string[]) => findVerb(args, VERBS.syntax) === 'dlx' && classifyArgs(args, VERBS) === 'network'
// berry prints nothing when the program fails (its status is berry's), and this line when the fetch did (plugin-dlx).
const fetchFailed = (output: string) => /Errors happened when preparing the environment required to run this command/.test(lastLine(output))

export const yarnBerry = {
  name: 'yarn-berry',
  ecosystem: 'npm',
  nicknames: ['berry'],
  offline: { args: [], env: { YARN_ENABLE_OFFLINE_MODE: '1' }, where: 'the yarn cache' },
  environment: registryVariable('yarn 2+', 'YARN_NPM_REGISTRY_SERVER'),
  // Never matched by name: `yarn` resolves to this adapter when `yarn --version` says 2 or later.
  executables: /(?!)/,
  alternatives: [['yarn']],
  defaultIndex: YARN_REGISTRY,
  verbs: VERBS,
  classify: args => classifyArgs(args, VERBS),
  program: { runs: runsProgram, fetchFailed },
  findUserIndex,
  knobs: KNOBS,
  configFiles: CONFIG_FILES,
  // Berry has no --registry flag; the variable is read for this run only and .yarnrc.yml stays untouched.
  // yarn.lock holds `name@npm:version` resolutions without URLs, so locked packages follow the mirror too.
  applyIndex(command, url, target) {
    const env: Record<string, string> = { ...command.env, [REGISTRY_ENV]: url.replace(/\/+$/, '') }
    // Plain http needs the host in unsafeHttpWhitelist (loopback test registries, allowInsecure mirrors).
    // It replaces the user's own list for this attempt, which only matters to someone who also allows other http hosts.
    if (/^http:/i.test(url)) env.YARN_UNSAFE_HTTP_WHITELIST = new URL(url).hostname
    // A top-level npmAuthToken/npmAuthIdent goes to whatever registry berry is pointed at (plugin-npm npmHttpUtils):
    // a mirror must never receive the user's token. Host-keyed npmRegistries/npmScopes credentials keep their host.
    if (target?.kind !== 'upstream') Object.assign(env, { YARN_NPM_AUTH_TOKEN: '', YARN_NPM_AUTH_IDENT: '', YARN_NPM_ALWAYS_AUTH: 'false' })
    return { ...command, env }
  },
  relay: yarnBerryRelay(berrySetting),
  packageUrl: npmPackageUrl,
  advice: {
    moreTime: 'YARN_HTTP_TIMEOUT=120000 yarn install',
    mirror: 'YARN_NPM_REGISTRY_SERVER=<mirror-url> yarn install',
    caBundle: 'YARN_HTTPS_CA_FILE_PATH=/path/ca.pem yarn install',
    proxy: 'YARN_HTTPS_PROXY=http://host:port',
    noCache: 'yarn cache clean, then install again',
    cleanCache: 'yarn cache clean --all',
    lookUp: 'yarn npm info <name> --fields versions',
  },
  // Berry has no --ignore-scripts on add; skip-build skips every package's build scripts.
  scriptInstall: { add: names => ['yarn', 'add', '--mode=skip-build', ...names], remove: names => ['yarn', 'remove', ...names] },
  // Berry's lockfile is YAML with a __metadata block; Yarn 1's is its own format without one.
  nodeProject: {
    lockfiles: ['yarn.lock'],
    precedence: 3,
    ownsLockfile: (dir, lockfile) => existsSync(join(dir, '.yarnrc.yml')) || /^__metadata:/m.test(readFileSync(lockfile, 'utf8')),
    packageManager: { name: 'yarn', majors: { from: 2 } },
  },
  verified: 'real',
  forms: '`yarn`, `yarn add\\|install\\|up ...`, `yarn dlx` (2.x and later; the fetch retried, the program run once)',
  testedWith: 'yarn 4',
  mirrorMechanism: '`YARN_NPM_REGISTRY_SERVER=<mirror>` in the environment (berry has no registry flag)',
} satisfies ToolAdapter
