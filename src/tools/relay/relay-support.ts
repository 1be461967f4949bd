import type { LookAheadSeeds } from './npm-dependencies.js'
import type { CommandLine, SecretsContext, ToolContext } from '../context.js'

/**
 * How a tool goes through resilient's local relay (src/relay, docs/relay.md): the index protocol the relay speaks
 * to it, how one attempt is pointed at it, and which TLS trust the relay must use to verify upstream as the tool would.
 */
export interface RelaySupport {
  /** src/relay/types.ts RelayProtocolName, spelled out: tools/ sit below relay/. */
  protocol: 'pypi' | 'npm' | 'goproxy' | 'cargo' | 'conda'
  /** Why this invocation cannot go through the relay (it would write the relay's addresses somewhere), if it cannot. */
  unsupported?(args: readonly string[]): string | undefined
  /**
   * The same, where it depends on what is installed or in the project (pdm's version, its lockfile): read from files
   * when the run is planned (src/run/relay.ts), never by starting the tool.
   */
  unsupportedIn?(context: ToolContext): string | undefined
  /**
   * The command pointed at the relay for one attempt: `url` is the relay's index URL, `secret` what it must send
   * (kept off argv: a netrc, an npmrc), `index` the URL of the index the relay stands for, `certificate` the relay's
   * (PEM) when it serves https (go), for the tool to trust for this attempt.
   */
  apply(command: CommandLine, relay: { url: string; secret: string; index: string; noProxy?: string; fileHost?: string; certificate?: string }, secrets: SecretsContext): CommandLine
  /**
   * npm: the `--replace-registry-host` the relay's attempt adds so that tarball URLs on the index reach the relay,
   * or undefined to keep npm's own (`foreignPins`: the lockfile or a scope names another registry).
   */
  fileHost?(index: string, trust: RelayTrust, foreignPins: boolean): string | undefined
  /**
   * npm registry protocol: where the packuments the relay gives point each tarball. `index` (the default) keeps the
   * index's own URL, for a tool that records it and sends such a URL to its registry itself (npm's
   * --replace-registry-host). `relay` points it at the relay, under the same path, for a tool that downloads the URL
   * as given and records it only relative to its registry, or not at all (pnpm): what it records is then the same.
   */
  tarballs?: 'index' | 'relay'
  /**
   * The tool's TLS trust (the CA bundle it verifies with, the hosts it does not verify) and the hosts it sends
   * credentials to by itself (a netrc, an npm token): the relay carries neither, so those hosts are not relayed.
   */
  trust(context: ToolContext): RelayTrust
  /** The tool's read timeout for one request as this invocation sets it (its default otherwise), in ms. */
  readTimeoutMs(context: ToolContext): number
  /**
   * After an attempt through the relay: what the tool's cache keeps under the relay's URLs is kept under the index's
   * too (`pages`: the paths of the pages the index itself gave), so that the plain tool finds it later.
   */
  keepCache?(context: ToolContext, relay: { base: string; index: string; pages: readonly string[] }): Promise<void>
  /** npm: the packages this command will resolve, so that the relay fetches their packuments ahead (src/relay/look-ahead.ts). */
  lookAhead?(context: ToolContext): LookAheadSeeds | undefined
}

export interface RelayTrust {
  /** A CA bundle file the tool uses instead of its default store, and where that setting comes from. */
  ca?: { path: string; origin: string }
  /** Folders whose every certificate the tool trusts besides `ca` (go's SSL_CERT_DIR): the relay trusts them too. */
  caDirs?: string[]
  /** Hosts (`host` or `host:port`) whose certificates the tool does not check, or `*` for all. */
  unverified: string[]
  /** Hosts the tool sends credentials to of its own accord, or `*` for any: where they come from, by host. */
  credentials?: Record<string, string>
  /** A proxy the tool sends every request to, loopback included (pip's `--proxy`): where it is set. */
  proxy?: string
  /**
   * Something the tool's own requests carry that the relay's would not: a client certificate (pip `--client-cert`,
   * npm `cert`/`key`), and where it is set. The relay does not take what it cannot carry.
   */
  carries?: string
  /**
   * A setting of the tool's own that the relay cannot stand beside, said as the rest of a sentence after the tool's
   * name: pnpm's `lockfile-include-tarball-url` (pnpm-lock.yaml would name the relay), berry's npmScopes (its
   * registries would get the relay's secret). The relay does not take such a run.
   */
  keepsAway?: string
  /**
   * The tool's own no-proxy list when a proxy applies to it: the relay's host is added to it for the attempt,
   * so that the tool's requests to the relay (and the relay's secret) never go to the proxy.
   */
  noProxy?: string
  /** npm's own `replace-registry-host`, when the person set one: kept as it is. */
  fileRouting?: string
  /**
   * npm: the other registries it downloads from (a scope's). npm sends every tarball URL on the index's host name to
   * the relay (--replace-registry-host), so one of them on that host would reach the relay and the index's paths.
   */
  otherRegistries?: string[]
}

/** `list` with the relay's `host` added: the tool reaches the relay directly, whatever proxy it uses for the rest. */
export const withLoopback = (list: string, host: string) => list ? `${list},${host}` : host

/**
 * NO_PROXY and no_proxy (tools read either spelling) for an attempt through the relay: the tool's own no-proxy list
 * with the relay's `host` added; nothing where no proxy applies to the tool (RelayTrust.noProxy undefined).
 */
export function relayNoProxyEnv(noProxy: string | undefined, host: string): Record<string, string> {
  if (noProxy === undefined) return {}
  const list = withLoopback(noProxy, host)
  return { NO_PROXY: list, no_proxy: list }
}

/** Whether the environment names a proxy the tools read (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, in either case). */
export const proxyInEnvironment = (env: NodeJS.ProcessEnv) => ['http_proxy', 'https_proxy', 'all_proxy'].some(name => env[name] || env[name.toUpperCase()])

/** The relay's credentials as the tools' credential files take them: any user name, the secret as the password. */
export const RELAY_USER = 'resilient'
