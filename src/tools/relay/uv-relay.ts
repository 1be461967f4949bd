import { withEnv } from '../argv/command-line.js'
import { findUvOptions, type UvCommand } from '../argv/uv-options.js'
import { findUvIndexMerging } from '../config/uv-config.js'
import { withNetrc } from '../source/credentials.js'
import type { CommandLine, ToolContext } from '../types.js'
import { netrcHosts } from './netrc-hosts.js'
import { proxyInEnvironment, RELAY_USER, relayNoProxyEnv, type RelaySupport, type RelayTrust } from './relay-support.js'

// What uv writes of its index: uv.lock keeps each package's `source = { registry = "<index URL>" }` (lock, sync, add,
// remove, tree, export and `run` lock the project first), and uv tool's receipt keeps its index options (clap reads
// UV_DEFAULT_INDEX as it reads --default-index). `uv pip` records no index.
const RELAYED = new Set(['pip install', 'pip sync', 'pip compile', 'pip list', 'pip tree', 'venv'])
const EMITS_INDEX = { long: ['--emit-index-url', '--emit-index-annotation', '--emit-find-links'], takesValue: false }
const INSECURE = { long: ['--allow-insecure-host', '--trusted-host'], takesValue: true }
const KEYRING = { long: ['--keyring-provider'], takesValue: true }

function whyNotVerb(command: UvCommand): string | undefined {
  if (RELAYED.has(command.verb)) {
    return findUvOptions(command.own, EMITS_INDEX).length ? `uv ${command.verb} --emit-index-url/--emit-index-annotation writes the index's URL into its output` : undefined
  }
  if (['lock', 'sync', 'add', 'remove', 'tree', 'export', 'run'].includes(command.verb)) return `uv ${command.verb} records each package's index URL in uv.lock`
  if (command.verb.startsWith('tool ')) return `uv ${command.verb} records its index in the tool's receipt`
  return `uv ${command.verb} is not taken through the relay`
}

/**
 * uv's own trust and credentials (uv-static env_vars.rs; uv-client base_client.rs): SSL_CERT_FILE, hosts it does not
 * verify (--allow-insecure-host, UV_INSECURE_HOST), a client certificate (SSL_CLIENT_CERT), credentials of its own
 * (a netrc machine, UV_INDEX_<NAME>_USERNAME/PASSWORD, a keyring provider), and the proxy variables reqwest reads.
 */
function trust(context: ToolContext, command: UvCommand): RelayTrust {
  const { env, home } = context
  const insecure = [...findUvOptions(command.own, INSECURE).map(option => option.value ?? ''), ...(env.UV_INSECURE_HOST ?? '').split(/[\s,]+/)].filter(Boolean)
  const indexCredentials = Object.keys(env).find(name => /^UV_INDEX_.+_(USERNAME|PASSWORD)$/.test(name) && env[name])
  const keyring = findUvOptions(command.own, KEYRING).at(-1)?.value ?? env.UV_KEYRING_PROVIDER
  const own = indexCredentials ?? (keyring && keyring !== 'disabled' ? `a keyring provider (${keyring})` : undefined)
  return {
    ...(env.SSL_CERT_FILE && { ca: { path: env.SSL_CERT_FILE, origin: 'SSL_CERT_FILE' } }),
    unverified: insecure,
    credentials: { ...netrcHosts(env, home), ...(own && { '*': own }) },
    ...(env.SSL_CLIENT_CERT && { carries: 'a client certificate (SSL_CLIENT_CERT)' }),
    ...(proxyInEnvironment(env) && { noProxy: env.no_proxy ?? env.NO_PROXY ?? '' }),
  }
}

/**
 * uv through the relay, for `uv pip` and `uv venv --seed` only: pointed as the restart loop points it (an index
 * option on its command line gets the relay's URL in its place, else UV_DEFAULT_INDEX), the secret in a private
 * netrc named by NETRC (uv-auth reads it for a URL without credentials). uv's first-index strategy asks its other
 * indexes before the default one, so a mirror's page never shadows them; `unsafe-*` strategies merge every index's
 * versions, so then nothing goes through the relay.
 */
export function uvRelay(parse: (args: readonly string[]) => UvCommand, applyIndex: (command: CommandLine, url: string) => CommandLine): RelaySupport {
  return {
    protocol: 'pypi',
    unsupported: args => whyNotVerb(parse(args)),
    unsupportedIn(context) {
      const { strategy, origin, extra } = findUvIndexMerging(context, parse(context.args))
      return strategy?.startsWith('unsafe') && extra ? `uv's index strategy ${strategy} (${origin}) merges the versions of every index, a private one beside` : undefined
    },
    apply(command, { url, secret, noProxy }, secrets) {
      const host = new URL(url).hostname
      const direct = withEnv(command, relayNoProxyEnv(noProxy, host))
      return withNetrc(applyIndex(direct, url), { url, username: RELAY_USER, password: secret }, secrets)
    },
    trust: context => trust(context, parse(context.args)),
    // UV_HTTP_TIMEOUT, else UV_REQUEST_TIMEOUT, else HTTP_TIMEOUT, in seconds; 30 s by default (base_client.rs DEFAULT_READ_TIMEOUT).
    readTimeoutMs(context) {
      const { env } = context
      const seconds = Number(env.UV_HTTP_TIMEOUT ?? env.UV_REQUEST_TIMEOUT ?? env.HTTP_TIMEOUT)
      return 1000 * (Number.isFinite(seconds) && seconds > 0 ? seconds : 30)
    },
  }
}
