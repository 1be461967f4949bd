import { join } from 'node:path'
import { NPM_UPSTREAM } from '../mirrors/npm.js'
import { findOptions, firstPositional } from './args.js'
import { findUp } from './locked-registries.js'
import { addOptions, NPM_FETCH_KNOBS, NPM_KNOB_OPTION, npmPackageUrl, PNPM_CONFIG_REGISTRY, REGISTRY_OPTION } from './npm-family.js'
import { withNpmrc } from './credentials.js'
import { findRegistryChoice } from './npm-registry-choice.js'
import { npmrcFiles, readNpmrcSetting } from './npmrc.js'
import type { ConfigFiles, IndexChoice, KnobData, ReadOnlyForms, ToolAdapter, ToolContext } from './types.js'
import { readYamlFile } from './yaml-file.js'
import { named, versionAndHelp } from './read-only.js'
import { registryVariable } from './environment.js'
import { classifyVerb } from './verbs.js'

const GLOBAL_WITH_VALUE = ['--registry', '--reg', '--dir', '-C', '--filter', '-F', '--reporter', '--loglevel', '--store-dir',
  '--workspace-dir', ...NPM_FETCH_KNOBS.map(knob => `--${knob}`)]
// pnpm's docs/cli: installs and updates talk to the registry; `dlx` and `exec` run programs, so they run once.
const NETWORK = new Set(['install', 'i', 'add', 'update', 'up', 'upgrade', 'fetch', 'import', 'dedupe', 'outdated', 'view', 'info'])
const PUBLISH = new Set(['publish', 'login', 'logout', 'adduser', 'dist-tag', 'deprecate', 'unpublish', 'owner', 'whoami', 'token', 'access'])
const VERBS = { network: NETWORK, publish: PUBLISH, local: /^--offline$/ }
// Read-only (pnpm's docs/cli): listing, explaining, paths and reading config.
const READ_ONLY = {
  leadingFlags: ['-g', '--global', '-r', '--recursive', '--json', '-s', '--silent'],
  commands: [...versionAndHelp('--version', '-v', '--help', '-h'), ...named(['list', 'ls', 'll', 'la', 'why', 'root', 'bin', 'help']),
    ...named(['get', 'list'], { under: ['config'] }), ...named(['path'], { under: ['store'] })],
} satisfies ReadOnlyForms
// pnpm ≤10 reads npm_config_*, pnpm 11+ only pnpm_config_* (pnpm.io configuring.md): either is the user's choice.
const envNames = (key: string) => [`pnpm_config_${key}`, `npm_config_${key}`]
const camel = (key: string) => key.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())

/** pnpm-workspace.yaml (10.x+) and the global config.yaml (11.x) hold settings in camelCase; `registries.default` too. */
function workspaceSetting(keys: readonly string[], { cwd, env, home }: ToolContext): { value: string; origin: string } | undefined {
  const configHome = env.XDG_CONFIG_HOME || join(home, '.config')
  const files = [findUp(cwd, ['pnpm-workspace.yaml']), join(configHome, 'pnpm', 'config.yaml')].filter(Boolean) as string[]
  for (const file of files) {
    const data = readYamlFile(file)
    for (const key of keys) {
      const value = key === 'registry' ? data?.registry ?? (data?.registries as Record<string, unknown> | undefined)?.default : data?.[camel(key)]
      if (typeof value === 'string' || typeof value === 'number') return { value: String(value), origin: file }
    }
  }
  return undefined
}

/** `.npmrc` (project, user) and pnpm 10's global `rc` file; npm's global npmrc is npm's, not pnpm's. */
function pnpmrcFiles(context: ToolContext): string[] {
  const configHome = context.env.XDG_CONFIG_HOME || join(context.home, '.config')
  return [...npmrcFiles({ ...context, executable: undefined }), join(configHome, 'pnpm', 'rc')]
}

function findUserIndex(context: ToolContext): IndexChoice | null {
  return findRegistryChoice(context, { options: [REGISTRY_OPTION, PNPM_CONFIG_REGISTRY], env: envNames('registry'), npmrc: pnpmrcFiles(context),
    ownFile: () => workspaceSetting(['registry'], context), defaultIndex: NPM_UPSTREAM })
}

const KNOBS = { options: NPM_KNOB_OPTION, env: NPM_FETCH_KNOBS.flatMap(knob => envNames(knob.replace(/-/g, '_'))), envIgnoresCase: true,
  settings: NPM_FETCH_KNOBS } satisfies KnobData

const CONFIG_FILES = {
  names: ['pnpm-workspace.yaml', '~/.config/pnpm/config.yaml (11.x)', '.npmrc and ~/.npmrc (pnpm ≤10)', '~/.config/pnpm/rc'],
  find: (keys, context) => (workspaceSetting(keys, context) ?? readNpmrcSetting(keys, context, pnpmrcFiles(context)))?.origin,
} satisfies ConfigFiles

export const pnpm = {
  name: 'pnpm',
  ecosystem: 'npm',
  offline: { args: ['--offline'], where: 'the pnpm store' },
  environment: registryVariable('pnpm', 'pnpm_config_registry', 'npm_config_registry'),
  shimNames: ['pnpm'],
  executables: /^pnpm(\.cmd|\.cjs)?$/,
  readOnly: READ_ONLY,
  alternatives: [['pnpm']],
  defaultIndex: NPM_UPSTREAM,
  verbs: VERBS,
  classify: args => classifyVerb(firstPositional(args, GLOBAL_WITH_VALUE)?.value, args, VERBS),
  findUserIndex,
  knobs: KNOBS,
  configFiles: CONFIG_FILES,
  // A flag, not env: pnpm 11 ignores npm_config_registry, and pnpm_config_registry means nothing to pnpm ≤10.
  // pnpm-lock.yaml keeps no tarball URL for registry packages, so a mirror leaves the lockfile unchanged.
  applyIndex: (command, url) => addOptions(command, `--registry=${url}`),
  passCredentials: withNpmrc,
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
  forms: '`pnpm add\\|install\\|i\\|update\\|fetch ...`',
  testedWith: 'pnpm 10',
  mirrorMechanism: '`--registry=<mirror>` added to the command',
} satisfies ToolAdapter
