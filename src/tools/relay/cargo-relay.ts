import { join } from 'node:path'
import { findOptions } from '../argv/args.js'
import { addCargoGlobalOptions } from '../argv/cargo-global-options.js'
import { withEnv, withFile } from '../argv/command-line.js'
import { cargoSetting } from '../config/cargo-config.js'
import { proxyInEnvironment, relayNoProxyEnv, type RelaySupport, type RelayTrust } from './relay-support.js'
import type { ToolContext } from '../types.js'

// The relay's name as a cargo registry: its token variable is CARGO_REGISTRIES_RESILIENT_RELAY_TOKEN.
const REGISTRY = 'resilient-relay'
const TOKEN_VARIABLE = 'CARGO_REGISTRIES_RESILIENT_RELAY_TOKEN'

/** A cargo setting as cargo reads it (src/tools/config/cargo-config.ts), as text. */
function setting(context: ToolContext, path: string[]): { value: string; origin: string } | undefined {
  const found = cargoSetting(context, path)
  return found && { value: String(found.value), origin: found.origin }
}

/**
 * cargo's TLS trust (http.cainfo replaces the system store, as curl's CAINFO does) and proxy: http.proxy is sent every
 * request, loopback included; the environment's proxies (curl reads them when http.proxy is unset) honour NO_PROXY,
 * to which the attempt adds the relay. cargo sends no credentials of its own to crates.io for reads (its token is for
 * publishing); an index of the person's own is never relayed (src/plan/relay.ts).
 */
function trust(context: ToolContext): RelayTrust {
  const cainfo = setting(context, ['http', 'cainfo'])
  const proxy = setting(context, ['http', 'proxy'])
  const noProxy = context.env.NO_PROXY ?? context.env.no_proxy ?? ''
  return { ...(cainfo && { ca: { path: cainfo.value, origin: cainfo.origin } }), unverified: [], credentials: {}, ...(proxy?.value && { proxy: proxy.origin }),
    ...(!proxy?.value && proxyInEnvironment(context.env) && { noProxy }) }
}

export const CARGO_RELAY: RelaySupport = {
  protocol: 'cargo',
  // A registry other than crates.io, named on the command line: the relay stands for crates.io (source replacement).
  unsupported: args => findOptions(args, { long: ['--registry', '--index'], takesValue: true }).length ? 'cargo --registry/--index names another registry than the one the relay stands for' : undefined,
  /**
   * Source replacement for the attempt, in a TOML file of the run's private directory given by `--config` (cargo
   * reads `--config <path>`): crates-io replaced by a registry named resilient-relay at the relay, whose token (the
   * relay's secret) cargo's `cargo:token` provider reads from CARGO_REGISTRIES_RESILIENT_RELAY_TOKEN, never argv.
   * cargo sends a token only to a registry whose config.json says `auth-required` (the relay's does) and only with a
   * credential provider configured for it (cargo 1.95, seen here). Replacement keeps crates.io's source id in
   * Cargo.lock, checksums included (cargo book, "Source Replacement").
   */
  apply: (command, { url, secret, noProxy }, secrets) => {
    const path = join(secrets.scratch.path, 'cargo-relay.toml')
    const content = `[source.crates-io]\nreplace-with = "${REGISTRY}"\n\n[registries.${REGISTRY}]\nindex = "${url}"\ncredential-provider = "cargo:token"\n`
    const host = new URL(url.replace(/^sparse\+/, '')).hostname
    return withFile(withEnv(addCargoGlobalOptions(command, '--config', path), { ...relayNoProxyEnv(noProxy, host), [TOKEN_VARIABLE]: secret }), { path, content })
  },
  trust,
  // http.timeout: curl's connect timeout and low-speed window, 30 s by default (cargo book, "http.timeout").
  readTimeoutMs: context => 1000 * (Number(setting(context, ['http', 'timeout'])?.value) || 30),
}
