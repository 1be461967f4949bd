import { CRATES_UPSTREAM } from '../mirrors/crates.js'
import { findOptions, firstPositional } from './argv/args.js'
import { cargoConfigLayers, findSetting, cargoSetting } from './config/cargo-config.js'
import { cratesIoSource } from './config/cargo-source.js'
import type { ConfigFiles, IndexChoice, ReadOnlyForms, ToolAdapter, ToolContext } from './types.js'
import { named, versionAndHelp } from './argv/read-only.js'
import { classifyVerb } from './argv/verbs.js'
import { sameIndex } from '../url.js'
import { addCargoGlobalOptions } from './argv/cargo-global-options.js'
import { CARGO_RELAY } from './relay/cargo-relay.js'

const GLOBAL_WITH_VALUE = ['--config', '-Z', '--color', '-C', '--explain']
// `cargo --help`. `run`, `test` and `bench` execute the user's program, whose own output must not be "retried".
// `search` uses the crates.io web API, which sparse mirrors do not serve.
const NETWORK = new Set(['build', 'b', 'check', 'c', 'doc', 'd', 'fetch', 'update', 'generate-lockfile', 'add', 'remove', 'rm',
  'install', 'info', 'metadata', 'tree', 'vendor', 'package', 'clippy', 'fix', 'rustc', 'rustdoc'])
const PUBLISH = new Set(['publish', 'login', 'logout', 'owner', 'yank'])
// --offline, --frozen or `--config net.offline=true`: the local registry cache only.
const VERBS = { network: NETWORK, publish: PUBLISH, local: /^--offline$|^--frozen$|net\.offline\s*=\s*true/ }
// Read-only (`cargo --help`). `pkgid` may write Cargo.lock, resolving first: it goes through resilient.
const READ_ONLY = {
  leadingFlags: ['-q', '--quiet', '-v', '-vv', '--verbose'],
  commands: [...versionAndHelp('--version', '-V', '--help', '-h', '--list'), ...named(['version', 'help', 'locate-project'])],
} satisfies ReadOnlyForms
const MIRROR_SOURCE = 'resilient-mirror'

/** `cargo +nightly build`: the toolchain selector comes first and is not the subcommand. */
function verbOf(args: readonly string[]): string | undefined {
  return firstPositional(args.filter(arg => !arg.startsWith('+')), GLOBAL_WITH_VALUE)?.value
}

function findUserIndex(context: ToolContext): IndexChoice | null {
  const { args } = context
  const index = findOptions(args, { long: ['--index'], takesValue: true }).at(-1)
  if (index?.value) return { url: index.value.replace(/^sparse\+/, ''), origin: '--index' }
  const registry = findOptions(args, { long: ['--registry'], takesValue: true }).at(-1)?.value
  if (registry) {
    const url = cargoSetting(context, ['registries', registry, 'index'])?.value
    return { url: typeof url === 'string' ? url.replace(/^sparse\+/, '') : `cargo-registry://${registry}`, origin: `--registry ${registry}` }
  }
  const offline = cargoSetting(context, ['net', 'offline'])
  if (offline?.value === true || offline?.value === 'true') return { url: 'none', origin: offline.origin === 'CARGO_NET_OFFLINE' ? 'CARGO_NET_OFFLINE' : 'net.offline' }
  const replaced = cratesIoSource(context)
  return replaced && { url: replaced.url, origin: replaced.origin, replacesDefault: true, ...(replaced.privateBecause && { privateBecause: replaced.privateBecause }) }
}

/** `--config` values, then .cargo/config.toml from the folder up and $CARGO_HOME's (cargo book, "Configuration"). */
const CONFIG_FILES = {
  names: ['.cargo/config.toml (from the project folder up, then CARGO_HOME)', '--config KEY=VALUE'],
  find(keys, context) {
    const { args, files } = cargoConfigLayers(context)
    return keys.map(key => findSetting([...args, ...files], key.split('.'))?.origin).find(Boolean)
  },
} satisfies ConfigFiles

export const cargo = {
  name: 'cargo',
  ecosystem: 'crates',
  offline: { args: ['--offline'], where: "cargo's local registry cache" },
  shimNames: ['cargo'],
  executables: /^cargo(\.exe)?$/,
  readOnly: READ_ONLY,
  alternatives: [['cargo']],
  defaultIndex: CRATES_UPSTREAM,
  verbs: VERBS,
  classify: args => classifyVerb(verbOf(args), args, VERBS),
  findUserIndex,
  relay: CARGO_RELAY,
  // http.timeout is curl's connect timeout and low-speed window (10 B/s): a stalled index, not a slow one.
  knobs: { env: ['CARGO_HTTP_TIMEOUT', 'HTTP_TIMEOUT', 'CARGO_NET_RETRY'], settings: ['http.timeout', 'net.retry'] },
  configFiles: CONFIG_FILES,
  // Source replacement keeps Cargo.lock's crates.io source ids and checksums; env vars cannot set replace-with.
  applyIndex(command, url) {
    if (sameIndex(url, CRATES_UPSTREAM)) return command
    const index = `${url.replace(/^sparse\+/, '').replace(/\/?$/, '/')}`
    return addCargoGlobalOptions(command, '--config', `source.crates-io.replace-with="${MIRROR_SOURCE}"`,
      '--config', `source.${MIRROR_SOURCE}.registry="sparse+${index}"`)
  },
  // The sparse index layout: 1/a, 2/ab, 3/a/abc, se/rd/serde (cargo book, registry index "Index files").
  packageUrl(indexUrl, name) {
    const crate = name.toLowerCase()
    const path = crate.length <= 2 ? `${crate.length}/${crate}` : crate.length === 3 ? `3/${crate[0]}/${crate}` : `${crate.slice(0, 2)}/${crate.slice(2, 4)}/${crate}`
    return `${indexUrl.replace(/^sparse\+/, '').replace(/\/?$/, '/')}${path}`
  },
  advice: {
    moreTime: 'CARGO_HTTP_TIMEOUT=120 CARGO_NET_RETRY=5 cargo <command>',
    mirror: 'a source replacement for one run (cargo --config \'source.crates-io.replace-with="mirror"\' --config \'source.mirror.registry="sparse+<mirror-url>"\' <command>)',
    caBundle: 'CARGO_HTTP_CAINFO=/path/ca.pem cargo <command>',
    proxy: 'CARGO_HTTP_PROXY=http://host:port',
    noCache: 'remove that crate from ~/.cargo/registry/cache, then run again',
    cleanCache: 'remove ~/.cargo/registry/cache',
    lookUp: 'cargo info <name>',
  },
  verified: 'real',
  forms: '`cargo build\\|fetch\\|install\\|add\\|update ...`',
  testedWith: 'cargo 1.95',
  mirrorMechanism: "`--config source.crates-io.replace-with=\"resilient-mirror\" --config source.resilient-mirror.registry=\"sparse+<mirror>/\"`",
} satisfies ToolAdapter
