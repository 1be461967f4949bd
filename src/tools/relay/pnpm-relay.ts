import { withNpmrc } from '../source/credentials.js'
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
    apply: (command, { url, secret }, secrets) => withNpmrc(settings.applyIndex(command, url), { url, username: RELAY_USER, password: secret }, secrets),
    trust: context => {
      const trust = npmStyleTrust(context, settings.read, settings.files(context))
      // `true` writes every tarball's full URL, the relay's then, into pnpm-lock.yaml.
      // Any value but false counts: a flag given before a package name may have taken the name as its value.
      const value = settings.read(context, 'lockfile-include-tarball-url')
      const recorded = value !== undefined && !/^false$/i.test(value)
      return { ...trust, ...(recorded && { keepsAway: 'writes tarball URLs into pnpm-lock.yaml (lockfile-include-tarball-url), which would name the relay' }) }
    },
    readTimeoutMs: context => npmStylePatience(context, settings.read, PNPM_FETCH).timeoutMs,
  }
}
