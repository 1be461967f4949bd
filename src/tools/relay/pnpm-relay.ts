import { withNpmrc, type UserNpmrc } from '../source/credentials.js'
import { findOptions } from '../argv/args.js'
import { HOST_CREDENTIAL } from '../source/npm-registry-choice.js'
import { npmStylePatience, npmStyleTrust, type NpmFetchDefaults, type NpmSettingReader } from './npm-relay.js'
import { RELAY_USER, type RelaySupport } from './relay-support.js'
import type { CommandLine, ToolContext } from '../types.js'

// pnpm's defaults (pnpm.io/settings/network): one minute for one request, 2 retries, waiting 10 s times 10 for each
// further one, at most 60 s.
export const PNPM_FETCH: NpmFetchDefaults = { timeout: 60_000, retries: 2, minWait: 10_000, maxWait: 60_000, factor: 10 }

export interface PnpmSettings {
  /** One of npm's settings as pnpm reads it: its command line, pnpm_config_/npm_config_ variables, its config files. */
  read: NpmSettingReader
  /** The npmrc files pnpm reads for this invocation (credentials by host). */
  files(context: ToolContext): string[]
  /** How the command is given a registry (`--registry`, or variables for `pnpm dlx`, which refuses the flag). */
  applyIndex(command: CommandLine, url: string): CommandLine
  /** The user npmrc pnpm reads, to which the relay's secret is added for the attempt. */
  userNpmrc: UserNpmrc
}

// A user npmrc named on the command line wins over every variable (pnpm 11 getNpmrcAuthFile; npm's and pnpm 10's
// `--userconfig` likewise): the relay's secret could not join it.
const OWN_NPMRC = { long: ['--userconfig', '--npmrc-auth-file'], takesValue: true, anyDashes: true }

/**
 * Credentials pnpm 11+ takes from its own variables (@pnpm/config readUrlScopedEnvConfig, readJsonAuthEnv):
 * `pnpm_config_//host/:_authToken` (npm_config_ ones are read by npmStyleTrust) and pnpm_config__auth, a JSON of
 * tokens by registry, for any host.
 */
function pnpmEnvCredentials(env: NodeJS.ProcessEnv): Record<string, string> {
  const hosts: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue
    const host = HOST_CREDENTIAL.exec(name.replace(/^pnpm_config_/i, ''))?.[1]
    if (/^pnpm_config_\/\//i.test(name) && host) hosts[host.toLowerCase()] = name
    if (/^pnpm_config__auth$/i.test(name)) hosts['*'] = name
  }
  return hosts
}

/**
 * pnpm through the relay. pnpm downloads each tarball from the packument's `dist.tarball` as given, and records in
 * pnpm-lock.yaml no tarball URL when it is its registry's standard one (`<registry><name>/-/<file>.tgz`), else the
 * path relative to the registry (@pnpm/lockfile.utils toLockfileResolution, relativeTarball; pnpm#867). So the
 * relay points tarballs at itself under the index's paths: pnpm then records exactly what it would against the index,
 * and with a lockfile builds each URL from its registry, the relay, as well. Its secret is `_auth` for the relay's
 * address in an npmrc named by npm_config_userconfig (pnpm reads it as npm does).
 */
export function pnpmRelay(settings: PnpmSettings): RelaySupport {
  return {
    protocol: 'npm',
    tarballs: 'relay',
    apply: (command, { url, secret }, secrets) => withNpmrc(settings.applyIndex(command, url), { url, username: RELAY_USER, password: secret }, secrets, settings.userNpmrc),
    trust: context => {
      const trust = npmStyleTrust(context, settings.read, settings.files(context))
      const credentials = { ...pnpmEnvCredentials(context.env), ...trust.credentials }
      // `true` writes every tarball's full URL, the relay's then, into pnpm-lock.yaml.
      // Any value but false counts: a flag given before a package name may have taken the name as its value.
      const value = settings.read(context, 'lockfile-include-tarball-url')
      const recorded = value !== undefined && !/^false$/i.test(value)
      const ownNpmrc = findOptions(context.args, OWN_NPMRC).at(-1)
      const keepsAway = recorded ? 'writes tarball URLs into pnpm-lock.yaml (lockfile-include-tarball-url), which would name the relay'
        : ownNpmrc ? `reads its user npmrc from the command line (${ownNpmrc.name}), which the relay's secret cannot join` : undefined
      return { ...trust, credentials, ...(keepsAway && { keepsAway }) }
    },
    readTimeoutMs: context => npmStylePatience(context, settings.read, PNPM_FETCH).timeoutMs,
  }
}
