import { findOptions } from '../argv/args.js'
import { withNpmrc } from '../source/credentials.js'
import { findEnv } from '../npm-family.js'
import { addNpmOptions } from '../argv/npm-options.js'
import { npmrcFiles, readNpmrcFiles, readNpmrcSetting } from '../config/npmrc.js'
import { DEFAULT_CREDENTIAL, HOST_CREDENTIAL, settingKeys } from '../source/npm-registry-choice.js'
import { proxyInEnvironment, RELAY_USER, withLoopback, type RelaySupport, type RelayTrust } from './relay-support.js'
import type { Patience, ToolContext } from '../types.js'
import { keepNpmCacheForPlainNpm, npmCacheDir } from './npm-cache-keys.js'

const NPMJS_HOST = 'registry.npmjs.org'
const option = (name: string) => ({ long: [`--${name}`], takesValue: true, anyDashes: true })

/** npm's setting from its command line, its npm_config_* variables, then its npmrc files, as npm reads it. */
function setting(context: ToolContext, name: string): string | undefined {
  const fromArgs = findOptions(context.args, option(name)).at(-1)
  if (fromArgs) return fromArgs.value ?? 'true'
  if (context.args.includes(`--no-${name}`)) return 'false'
  return findEnv(context.env, [`npm_config_${name.replace(/-/g, '_')}`])?.value ?? readNpmrcSetting([name], context)?.value
}


/**
 * The registries npm sends credentials to: a CI job's token for registry.npmjs.org (private scoped packages there
 * need it) would not reach the registry through the relay.
 */
export function npmrcCredentials(context: ToolContext, files: readonly string[]): Record<string, string> {
  const hosts: Record<string, string> = {}
  for (const [key, origin] of settingKeys(context, readNpmrcFiles(files, context.env))) {
    const host = HOST_CREDENTIAL.exec(key)?.[1]?.toLowerCase() ?? (DEFAULT_CREDENTIAL.test(key) ? '*' : undefined)
    if (host) hosts[host] = `${key} in ${origin}`
  }
  return hosts
}

/** How an npm-family tool reads one of npm's settings (`cafile`, `fetch-timeout`) for an invocation, as it reads it. */
export type NpmSettingReader = (context: ToolContext, name: string) => string | undefined

/**
 * The TLS trust of a tool that reads npm's settings (npm, pnpm): `cafile` (replacing Node's store for the registry),
 * `strict-ssl=false` or an inline `ca` turning checks off, client certificates, proxies, credentials by host
 * (`files`: the npmrc files it reads).
 */
export function npmStyleTrust(context: ToolContext, setting: NpmSettingReader, files: readonly string[]): RelayTrust {
  const cafile = setting(context, 'cafile')
  const unverified = /^false$/i.test(setting(context, 'strict-ssl') ?? '') || setting(context, 'ca') ? ['*'] : []
  const proxied = proxyInEnvironment(context.env) || setting(context, 'proxy') || setting(context, 'https-proxy')
  const noProxy = setting(context, 'noproxy') ?? context.env.NO_PROXY ?? context.env.no_proxy ?? ''
  // A client certificate for every registry (per-registry certfile/keyfile count as credentials of that host).
  const clientCert = ['cert', 'key'].find(name => setting(context, name))
  const fileRouting = setting(context, 'replace-registry-host')
  return { ...(cafile && { ca: { path: cafile, origin: 'npm cafile' } }), unverified, credentials: npmrcCredentials(context, files), ...(proxied && { noProxy }), ...(fileRouting && { fileRouting }),
    ...(clientCert && { carries: `a client certificate (npm ${clientCert})` }) }
}

/** A tool's defaults for npm's fetch settings: the timeout of one request (ms), its retries and their waits. */
export interface NpmFetchDefaults { timeout: number; retries: number; minWait: number; maxWait: number; factor: number }

// npm's defaults (npm config docs, make-fetch-happen's retry): five minutes for one request, 2 retries, waiting
// 10 s times 10 for each further one, at most 60 s.
const NPM_FETCH: NpmFetchDefaults = { timeout: 300_000, retries: 2, minWait: 10_000, maxWait: 60_000, factor: 10 }

/** How long npm waits on one request and how often it asks again, as this command sets it (npm's defaults otherwise). */
export const npmPatience = (context: ToolContext): Patience => npmStylePatience(context, setting, NPM_FETCH)

/** The same for any tool that reads npm's fetch settings (`fetch-timeout`, `fetch-retries`...), with its own defaults. */
export function npmStylePatience(context: ToolContext, setting: NpmSettingReader, defaults: NpmFetchDefaults): Patience {
  const number = (name: string, fallback: number) => {
    const value = Number(setting(context, name))
    return setting(context, name) !== undefined && Number.isFinite(value) && value >= 0 ? value : fallback
  }
  const timeoutMs = number('fetch-timeout', defaults.timeout) || defaults.timeout
  const retries = number('fetch-retries', defaults.retries)
  const [minWait, maxWait, factor] = [number('fetch-retry-mintimeout', defaults.minWait), number('fetch-retry-maxtimeout', defaults.maxWait), number('fetch-retry-factor', defaults.factor)]
  let betweenTriesMs = 0
  for (let retry = 0; retry < retries; retry++) betweenTriesMs += Math.min(maxWait, minWait * factor ** retry)
  return { timeoutMs, tries: retries + 1, betweenTriesMs, settings: `fetch-timeout ${timeoutMs}, fetch-retries ${retries}` }
}

/**
 * npm sends a tarball URL to its registry (here the relay) when its host name is `replace-registry-host`'s: by
 * default registry.npmjs.org (pacote, arborist reify.js). That already covers an index on registry.npmjs.org, and npm's
 * own setting, when the person set one, is theirs: neither is replaced. Another index's tarball URLs (which the relay
 * keeps in packuments, as the lockfile records them) need both hosts: `always`, which arborist applies to every
 * resolved URL of the lockfile, scoped ones included, so only when no scope registry or lockfile pin names another
 * host. Otherwise npm's default stays: tarballs on the index then go to it directly, as without resilient.
 */
function fileHost(index: string, trust: RelayTrust, foreignPins: boolean): string | undefined {
  if (trust.fileRouting || new URL(index).hostname === NPMJS_HOST || foreignPins) return undefined
  return 'always'
}

export const NPM_RELAY: RelaySupport = {
  protocol: 'npm',
  // The relay gives each tarball's URL on the index itself, which npm records in package-lock.json as it would
  // without resilient; --replace-registry-host sends the download of such a URL to the configured registry, the
  // relay (npm 9+; arborist reify.js matches the host name).
  // npm's noproxy applies to its own proxy settings and the environment's alike (@npmcli/agent).
  apply: (command, { url, secret, noProxy, fileHost }, secrets) => withNpmrc(addNpmOptions(command, `--registry=${url}`, ...(fileHost ? [`--replace-registry-host=${fileHost}`] : []),
    ...(noProxy === undefined ? [] : [`--noproxy=${withLoopback(noProxy, new URL(url).hostname)}`])), { url, username: RELAY_USER, password: secret }, secrets),
  fileHost,
  trust: context => npmStyleTrust(context, setting, npmrcFiles(context)),
  keepCache: async (context, relay) => void await keepNpmCacheForPlainNpm(npmCacheDir(context, setting), relay),
  readTimeoutMs: context => npmPatience(context).timeoutMs,
}
