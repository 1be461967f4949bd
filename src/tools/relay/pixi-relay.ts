import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { withEnv } from '../argv/command-line.js'
import { ALIAS_BASES } from '../conda-family.js'
import { findManifest, mirrorConfigText, readGlobalConfig } from '../config/pixi-config.js'
import { readTomlFile, valueAt } from '../config/project-files.js'
import { netrcHosts } from './netrc-hosts.js'
import { pixiConfigPath, withPixiConfigFile, type PixiSetup } from '../source/pixi-mirror.js'
import type { ToolContext } from '../types.js'
import { proxyInEnvironment, relayNoProxyEnv, type RelaySupport, type RelayTrust } from './relay-support.js'

/*
 * pixi reaches the relay through rattler's mirror middleware: a `[mirrors]` entry sends every request under the
 * index's URL to the relay, while pixi.lock and conda-meta keep the channel's own URLs (the middleware rewrites the
 * request only: rattler_networking/src/mirror_middleware.rs). The entry is in a temporary config file of the run's
 * private directory (0600), as the mirror attempts' are, because pixi reads mirrors from config alone; the relay's
 * secret is in its URL as conda's token form, `t/<secret>/`, which rattler masks in what it prints.
 * The middleware order (pixi_utils/src/reqwest.rs build_reqwest_middleware_stack): retry, mirror, ..., then
 * authentication on the rewritten URL; pixi's own credentials for the index would thus never reach it.
 */

/** pixi_utils/src/reqwest.rs DEFAULT_REQWEST_TIMEOUT_SEC: five minutes of silence before a read fails. */
const READ_TIMEOUT_MS = 300_000

type Table = Record<string, unknown>
const REDIRECTED_HOSTS = new Set(ALIAS_BASES.map(url => new URL(url).host.toLowerCase()))
const withSlash = (url: string) => url.endsWith('/') ? url : `${url}/`

/** The global config pixi loads for this invocation with the workspace's `.pixi/config.toml` over it. */
function pixiConfig({ args, env, home, cwd }: ToolContext): { config: Table; origin: string }[] {
  const manifest = findManifest(args, cwd)
  const local = manifest && join(dirname(manifest), '.pixi', 'config.toml')
  return [{ config: readGlobalConfig(args, env, home, cwd), origin: 'your pixi config' }, ...(local ? [{ config: readTomlFile(local) ?? {}, origin: local }] : [])]
}

/** Hosts of a rattler credentials file (a JSON object keyed by host; `*.host` keys match any host, taken as all). */
function authFileHosts(path: string): Record<string, string> {
  let keys: string[]
  try {
    keys = Object.keys(JSON.parse(readFileSync(path, 'utf8')) as object)
  } catch {
    return {}
  }
  return Object.fromEntries(keys.map(key => [key.startsWith('*') ? '*' : key.toLowerCase(), path]))
}

/**
 * Where pixi finds credentials by itself (rattler_networking authentication_storage/storage.rs
 * from_env_and_defaults: RATTLER_AUTH_FILE, the system keyring, ~/.rattler/credentials.json, the netrc; pixi's
 * `authentication-override-file` replaces them). A keyring resilient cannot read (macOS, Windows, a Linux desktop's
 * Secret Service on D-Bus) may hold a token for any host: then no host is relayed.
 */
function credentialHosts(context: ToolContext, configs: { config: Table }[]): Record<string, string> {
  const { env, home } = context
  const override = configs.map(({ config }) => valueAt(config, 'authentication-override-file')).filter((value): value is string => typeof value === 'string').at(-1)
  if (override) return authFileHosts(override)
  const keyring = process.platform === 'darwin' || process.platform === 'win32' || Boolean(env.DBUS_SESSION_BUS_ADDRESS)
  return {
    ...netrcHosts(env, home),
    ...authFileHosts(join(home, '.rattler', 'credentials.json')),
    ...(env.RATTLER_AUTH_FILE ? authFileHosts(env.RATTLER_AUTH_FILE) : {}),
    ...(keyring && { '*': 'the system keyring, where `pixi auth login` keeps tokens, which resilient cannot read' }),
  }
}

function trust(context: ToolContext): RelayTrust {
  const configs = pixiConfig(context)
  const setting = (key: string) => configs.filter(({ config }) => valueAt(config, key) !== undefined).at(-1)
  const noVerify = setting('tls-no-verify')
  const proxy = configs.find(({ config }) => Object.keys((valueAt(config, 'proxy-config') ?? {}) as Table).some(key => key === 'https' || key === 'http'))
  // pixi's own mirrors decide where it fetches from: the relay would replace them, not stand in front of them.
  const mirrors = configs.find(({ config }) => Object.keys((valueAt(config, 'mirrors') ?? {}) as Table).length)
  const credentials = credentialHosts(context, configs)
  // The relay's config also takes the catalog hosts a channel URL may name (relayConfigText): their credentials too.
  const redirected = Object.keys(credentials).find(host => REDIRECTED_HOSTS.has(host))
  const carries = mirrors ? `its own [mirrors] (${mirrors.origin})` : redirected ? `credentials for ${redirected} (${credentials[redirected]}), whose channels would go to the relay` : undefined
  return {
    unverified: noVerify && valueAt(noVerify.config, 'tls-no-verify') === true ? ['*'] : [],
    credentials,
    ...(proxy && { proxy: `[proxy-config] in ${proxy.origin}` }),
    ...(carries && { carries }),
    ...(proxyInEnvironment(context.env) && { noProxy: context.env.no_proxy ?? context.env.NO_PROXY ?? '' }),
  }
}

/**
 * The temporary config: the person's global config, with the prefixes a mirror attempt would send to its mirror
 * (conda.anaconda.org and the catalog mirrors, src/tools/config/pixi-config.ts mirrorConfigText) and the index itself
 * sent to the relay instead; channels with a token of their own (`…/t/<token>/`) keep going where they went.
 */
export function relayConfigText(user: Table, index: string, relayUrl: string): string {
  const own = (user.mirrors && typeof user.mirrors === 'object' ? user.mirrors : {}) as Table
  return mirrorConfigText({ ...user, mirrors: { ...own, [withSlash(index)]: [relayUrl] } }, relayUrl)
}

/**
 * pixi's debug log prints its mirror map, the relay's URL with its secret in it (pixi_utils/src/reqwest.rs
 * mirror_middleware: "Using mirrors: ..."): pixi crates log at debug from `-vv` on (pixi_cli/src/lib.rs
 * log_level_filter), and whatever RUST_LOG asks for when no -v/-q is given.
 */
function logsMirrors(args: readonly string[], env: NodeJS.ProcessEnv | undefined): string | undefined {
  const end = args.indexOf('--')
  const own = end < 0 ? args : args.slice(0, end)
  const count = own.reduce((sum, arg) => sum + (/^-v+$/.test(arg) ? arg.length - 1 : arg === '--verbose' ? 1 : 0), 0)
  if (count >= 2) return 'pixi -vv and more print its mirrors, which would show the relay\'s secret'
  const flags = own.some(arg => /^-(v+|q+)$/.test(arg) || arg === '--verbose' || arg === '--quiet')
  return !flags && env?.RUST_LOG ? 'pixi logs what RUST_LOG asks for, its mirrors too, which would show the relay\'s secret' : undefined
}

/** pixi's relay support, bound to the person's setup (PixiSetup: the run's private directory). */
export function pixiRelay(setup: PixiSetup | undefined, unsupported: (args: readonly string[]) => string | undefined): RelaySupport {
  return {
    protocol: 'conda',
    unsupported: args => unsupported(args) ?? logsMirrors(args, setup?.env),
    apply(command, { url, secret, index, noProxy }) {
      const user = setup ? readGlobalConfig(command.argv.slice(1), setup.env, setup.home, '.') : {}
      const host = (new URL(index).hostname || 'index').replace(/[^a-z0-9.-]/gi, '_')
      const configured = withPixiConfigFile(command, pixiConfigPath(setup, `pixi-relay-${host}.toml`), relayConfigText(user, index, `${url}t/${secret}/`), setup)
      return withEnv(configured, relayNoProxyEnv(noProxy, new URL(url).hostname))
    },
    trust,
    readTimeoutMs: () => READ_TIMEOUT_MS,
  }
}
