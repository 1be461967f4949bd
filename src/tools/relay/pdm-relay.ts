import { join } from 'node:path'
import { findOptions } from '../argv/args.js'
import { withEnv } from '../argv/command-line.js'
import { lockPinsUrls, pdmSetting, pdmVerb, projectRoot } from '../config/pdm-config.js'
import { installedPdmVersion } from '../config/pdm-version.js'
import { withNetrc } from '../source/credentials.js'
import type { ToolContext } from '../types.js'
import { netrcHosts } from './netrc-hosts.js'
import { proxyInEnvironment, RELAY_USER, relayNoProxyEnv, type RelaySupport, type RelayTrust } from './relay-support.js'

// Commands that read the index's pages (add, lock, update and install write pdm.lock). `search` reads PyPI's search
// page, `build` and `self update` install through other installers: they go to the index directly.
const RELAYED = new Set(['add', 'remove', 'install', 'sync', 'lock', 'update', 'outdated'])
const WRITES_LOCK = new Set(['add', 'remove', 'install', 'lock', 'update'])
const STRATEGY = { long: ['--strategy'], short: ['-S'], takesValue: true }
const STATIC_URLS = { long: ['--static-urls'], takesValue: false }

const enabled = (value: unknown) => !(value === false || /^(0|false|no|off|)$/i.test(String(value)))

/**
 * Why this pdm cannot write pdm.lock through the relay. pdm before 2.8 records every file's URL (`{url = ..., hash
 * = ...}`, pdm 2.2 cli/utils.py format_lockfile): through the relay, the relay's. pdm 2.8+ records file names and
 * hashes only, unless static URLs are asked for (`--static-urls`, `-S static_urls`) or the lockfile already has them
 * (pdm keeps a lockfile's strategy; docs/usage/lockfile.md).
 */
function unsupportedIn(context: ToolContext): string | undefined {
  const verb = pdmVerb(context.args)
  if (!RELAYED.has(verb)) return `pdm ${verb || 'without a command'} does not read the index's pages through pdm's own finder`
  // pdm 2.19+ may hand resolving and installing to uv (`use_uv`), whose settings are uv's: not read here.
  const useUv = context.env.PDM_USE_UV ?? pdmSetting('use_uv', context)?.value
  if (useUv !== undefined && enabled(useUv)) return 'pdm with use_uv resolves and installs through uv, whose settings are not read here'
  if (!WRITES_LOCK.has(verb)) return undefined
  if (findOptions(context.args, STATIC_URLS).length || findOptions(context.args, STRATEGY).some(option => /(^|,)static_urls/.test(option.value ?? ''))) return 'pdm with static URLs records download URLs in pdm.lock'
  const root = projectRoot(context)
  if (root && lockPinsUrls(join(root, 'pdm.lock'))) return 'pdm.lock records download URLs, which pdm keeps writing'
  const version = installedPdmVersion(context.executable)
  if (!version) return 'pdm\'s version is not known here, and pdm before 2.8 records download URLs in pdm.lock'
  return version[0] < 2 || (version[0] === 2 && version[1] < 8) ? `pdm ${version.join('.')} records download URLs in pdm.lock (2.8 and later do not)` : undefined
}

/**
 * pdm's trust (pdm models/environment.py _build_session): `pypi.ca_certs`, else requests' REQUESTS_CA_BUNDLE and
 * CURL_CA_BUNDLE (pdm 2.2 is requests-based; trust_env); `pypi.verify_ssl = false` for the index; `pypi.client_cert`
 * presented by pdm itself. Credentials: a netrc machine (unearth auth.py reads netrc after a 401), and
 * PDM_PYPI_USERNAME/PDM_PYPI_PASSWORD or `pypi.username` (later pdm) for the index.
 */
function trust(context: ToolContext): RelayTrust {
  const { env, home } = context
  const configured = pdmSetting('pypi.ca_certs', context)
  const ca = configured ? { path: String(configured.value), origin: configured.origin }
    : env.REQUESTS_CA_BUNDLE ? { path: env.REQUESTS_CA_BUNDLE, origin: 'REQUESTS_CA_BUNDLE' } : env.CURL_CA_BUNDLE ? { path: env.CURL_CA_BUNDLE, origin: 'CURL_CA_BUNDLE' } : undefined
  const verify = pdmSetting('pypi.verify_ssl', context)
  const clientCert = pdmSetting('pypi.client_cert', context)
  const ownUser = env.PDM_PYPI_USERNAME ? 'PDM_PYPI_USERNAME' : env.PDM_PYPI_PASSWORD ? 'PDM_PYPI_PASSWORD' : pdmSetting('pypi.username', context)?.origin ?? pdmSetting('pypi.password', context)?.origin
  return {
    ...(ca && { ca }),
    unverified: verify && !enabled(verify.value) ? ['*'] : [],
    credentials: { ...netrcHosts(env, home), ...(ownUser && { '*': ownUser }) },
    ...(clientCert && { carries: `a client certificate (${clientCert.origin})` }),
    ...(proxyInEnvironment(env) && { noProxy: env.no_proxy ?? env.NO_PROXY ?? '' }),
  }
}

/** pdm's read timeout: PDM_REQUEST_TIMEOUT or `request_timeout` (pdm 2.x models/session.py), 15 s by default. */
function readTimeoutMs(context: ToolContext): number {
  const value = Number(context.env.PDM_REQUEST_TIMEOUT ?? pdmSetting('request_timeout', context)?.value)
  return 1000 * (Number.isFinite(value) && value > 0 ? value : 15)
}

/**
 * pdm through the relay: pointed by PDM_PYPI_URL, which beats pdm.toml and the global config (a ChainMap with the
 * environment first, project/config.py) and is written nowhere; the secret in a private netrc named by NETRC, which
 * pdm reads after the relay's first 401 (unearth auth.py handle_401, allow_netrc).
 */
export const PDM_RELAY: RelaySupport = {
  protocol: 'pypi',
  unsupportedIn,
  apply(command, { url, secret, noProxy }, secrets) {
    const host = new URL(url).hostname
    const direct = withEnv(command, relayNoProxyEnv(noProxy, host))
    return withNetrc(withEnv(direct, { PDM_PYPI_URL: url }), { url, username: RELAY_USER, password: secret }, secrets)
  },
  trust,
  readTimeoutMs,
}
