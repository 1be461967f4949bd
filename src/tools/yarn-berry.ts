import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { firstPositional } from './args.js'
import { findEnv, npmPackageUrl, YARN_REGISTRY } from './npm-family.js'
import type { IndexChoice, ToolAdapter, ToolContext, ToolKnobs } from './types.js'
import { readYamlFile } from './yaml-file.js'
import { registryVariable } from './environment.js'
import { withEnv } from './command-line.js'

// berry's plugin-npm and yarnpkg-core Configuration.ts. `dlx` runs a program and `set version` downloads yarn itself from elsewhere: both run once.
const NETWORK = new Set(['install', 'add', 'up', 'upgrade', 'dedupe'])
const NPM_PUBLISH = new Set(['publish', 'login', 'logout', 'tag', 'whoami'])
// Settings as env: YARN_ + SCREAMING_SNAKE of the name; berry lower-cases env keys (Configuration.ts getEnvironmentSettings).
const REGISTRY_ENV = 'YARN_NPM_REGISTRY_SERVER'
const KNOBS = { httpTimeout: 'YARN_HTTP_TIMEOUT', httpRetry: 'YARN_HTTP_RETRY' }

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

function findUserIndex(context: ToolContext): IndexChoice | null {
  const fromEnv = findEnv(context.env, [REGISTRY_ENV])
  if (fromEnv) return { url: fromEnv.value, origin: fromEnv.name }
  const fromFile = rcSetting(['npmRegistryServer'], context)
  return fromFile ? { url: fromFile.value, origin: fromFile.origin } : null
}

function findUserKnobs(context: ToolContext): ToolKnobs {
  const fromEnv = findEnv(context.env, Object.values(KNOBS))
  if (fromEnv) return { userSet: true, origin: fromEnv.name }
  const fromFile = rcSetting(Object.keys(KNOBS), context)
  return fromFile ? { userSet: true, origin: `${fromFile.key} in ${fromFile.origin}` } : { userSet: false }
}

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
  classify(args) {
    const verb = firstPositional(args, ['--cwd'])
    if (verb?.value === 'npm') {
      const sub = firstPositional(args.slice(verb.index + 1))?.value
      if (sub && NPM_PUBLISH.has(sub)) return 'publish'
      // `yarn npm audit` goes to the audit registry: a mirror has none.
      return sub === 'info' ? 'network' : 'local'
    }
    // Bare `yarn` is `yarn install`.
    if (verb === undefined) return args.some(arg => /^(-v|--version|-h|--help)$/.test(arg)) ? 'local' : 'network'
    if (verb.value === 'workspaces' && args[verb.index + 1] === 'focus') return 'network'
    return NETWORK.has(verb.value) && !args.includes('--offline') ? 'network' : 'local'
  },
  findUserIndex,
  findUserKnobs,
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
  // httpTimeout is a socket idle timeout (got's timeout.socket); the 3 retries of a dead registry are resilient's job.
  tuneForFastDetection: command => withEnv(command, { [KNOBS.httpTimeout]: '8000', [KNOBS.httpRetry]: '0' }),
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
    ownsLockfile: (dir, lockfile) => existsSync(join(dir, '.yarnrc.yml')) || /^__metadata:/m.test(readFileSync(lockfile, 'utf8')),
    packageManager: { name: 'yarn', majors: { from: 2 } },
  },
  verified: 'real',
  forms: '`yarn`, `yarn add\\|install\\|up ...` (2.x and later)',
  testedWith: 'yarn 4',
  mirrorMechanism: '`YARN_NPM_REGISTRY_SERVER=<mirror>` in the environment (berry has no registry flag)',
} satisfies ToolAdapter
