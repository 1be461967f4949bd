import { NPM_UPSTREAM } from '../mirrors/npm.js'
import { findOptions, firstPositional } from './args.js'
import { countLockedHosts, describeLockedHosts, readLockfile } from './locked-registries.js'
import { guardLockfile, NPM_LOCKFILE } from './lockfile-registry.js'
import { addOptions, FAST_FETCH_TIMEOUT_MS, findEnv, NPM_FETCH_KNOBS, npmPackageUrl, REGISTRY_OPTION } from './npm-family.js'
import { readNpmrcSetting } from './npmrc.js'
import type { IndexChoice, ToolAdapter, ToolContext, ToolKnobs } from './types.js'

// Options that take a value and may stand before the command (`npm --registry X install`).
const GLOBAL_WITH_VALUE = ['--registry', '--reg', '--userconfig', '--globalconfig', '--cache', '--prefix', '-C', '--loglevel',
  '--workspace', '-w', '--proxy', '--https-proxy', '--noproxy', '--cafile', '--ca', '--cert', '--key', '--omit', '--include',
  '--before', '--install-strategy', '--otp', '--replace-registry-host', '--location', '--logs-dir', ...NPM_FETCH_KNOBS.map(knob => `--${knob}`)]

// Aliases from npm's lib/utils/cmd-list.js (reference §9.5): installs, clean installs, updates, and read-only queries.
const NETWORK = new Set(['install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'isntall', 'add',
  'ci', 'clean-install', 'ic', 'install-clean', 'isntall-clean', 'install-test', 'it', 'install-ci-test', 'cit', 'sit',
  'update', 'u', 'up', 'upgrade', 'udpate', 'dedupe', 'ddp', 'outdated', 'view', 'info', 'show', 'v'])
// A mirror must never see credentials or uploads (reference §0.3).
const PUBLISH = new Set(['publish', 'unpublish', 'login', 'logout', 'adduser', 'add-user', 'owner', 'author', 'dist-tag',
  'dist-tags', 'deprecate', 'undeprecate', 'access', 'token', 'team', 'org', 'star', 'unstar', 'stars', 'whoami', 'trust', 'profile', 'hook'])
const KNOB_OPTION = { long: NPM_FETCH_KNOBS.map(knob => `--${knob}`), takesValue: true }

function findUserIndex(context: ToolContext): IndexChoice | null {
  const flag = findOptions(context.args, REGISTRY_OPTION).at(-1)
  if (flag?.value) return { url: flag.value, origin: context.args[flag.index]!.split('=')[0]! }
  const fromEnv = findEnv(context.env, ['npm_config_registry'])
  if (fromEnv) return { url: fromEnv.value, origin: fromEnv.name }
  const fromFile = readNpmrcSetting(['registry'], context)
  return fromFile ? { url: fromFile.value, origin: fromFile.origin } : null
}

function findUserKnobs(context: ToolContext): ToolKnobs {
  const flag = findOptions(context.args, KNOB_OPTION)[0]
  if (flag) return { userSet: true, origin: flag.name }
  const fromEnv = findEnv(context.env, NPM_FETCH_KNOBS.map(knob => `npm_config_${knob.replace(/-/g, '_')}`))
  if (fromEnv) return { userSet: true, origin: fromEnv.name }
  const fromFile = readNpmrcSetting(NPM_FETCH_KNOBS, context)
  return fromFile ? { userSet: true, origin: `${fromFile.key} in ${fromFile.origin}` } : { userSet: false }
}

function describeLockedSources(context: ToolContext): string | undefined {
  const lock = readLockfile(context.cwd, ['npm-shrinkwrap.json', 'package-lock.json'])
  if (!lock) return undefined
  // Lockfile URLs on the user's own registry are what they asked for: nothing to say about them.
  const userUrl = findUserIndex(context)?.url
  const userHost = userUrl && URL.canParse(userUrl) ? new URL(userUrl).host : undefined
  const hosts = countLockedHosts(lock.text, /"resolved":\s*"(https?:\/\/[^"]+)"/g, host => host !== new URL(NPM_UPSTREAM).host && host !== userHost)
  return describeLockedHosts(lock.file, hosts, 'npm downloads them from there whatever --registry says (only registry.npmjs.org URLs follow it), so a mirror cannot stand in for that host.')
}

export const npm = {
  name: 'npm',
  ecosystem: 'npm',
  executables: /^npm(\.cmd)?$/,
  alternatives: [['npm']],
  defaultIndex: NPM_UPSTREAM,
  classify(args) {
    const verb = firstPositional(args, GLOBAL_WITH_VALUE)?.value
    if (verb === undefined) return 'local'
    if (PUBLISH.has(verb)) return 'publish'
    // --offline installs from the cache only: no index is involved, so no mirror can help.
    if (!NETWORK.has(verb) || args.includes('--offline')) return 'local'
    return 'network'
  },
  findUserIndex,
  findUserKnobs,
  // npmmirror answers the audit endpoint with 501 after ~70 s (cnpm/cnpmcore#673): no audit on any mirror.
  applyIndex: (command, url) => addOptions(command, `--registry=${url}`, ...(new URL(url).host === new URL(NPM_UPSTREAM).host ? [] : ['--no-audit'])),
  tuneForFastDetection: command => addOptions(command, `--fetch-timeout=${FAST_FETCH_TIMEOUT_MS}`, '--fetch-retries=0'),
  packageUrl: npmPackageUrl,
  describeLockedSources,
  guardLockfile: cwd => guardLockfile(NPM_LOCKFILE, cwd),
  verified: 'real',
  mirrorMechanism: '`--registry=<mirror> --no-audit` added to the command',
} satisfies ToolAdapter
