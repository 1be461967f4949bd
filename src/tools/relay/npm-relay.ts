import { findOptions } from '../argv/args.js'
import { withNpmrc } from '../source/credentials.js'
import { findEnv } from '../npm-family.js'
import { addNpmOptions } from '../argv/npm-options.js'
import { npmrcFiles, readNpmrcFiles, readNpmrcSetting } from '../config/npmrc.js'
import { DEFAULT_CREDENTIAL, HOST_CREDENTIAL, settingKeys } from '../source/npm-registry-choice.js'
import { proxyInEnvironment, RELAY_USER, withLoopback, type RelaySupport, type RelayTrust } from './relay-support.js'
import type { ToolContext } from '../types.js'

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
function credentials(context: ToolContext): Record<string, string> {
  const hosts: Record<string, string> = {}
  for (const [key, origin] of settingKeys(context, readNpmrcFiles(npmrcFiles(context), context.env))) {
    const host = HOST_CREDENTIAL.exec(key)?.[1]?.toLowerCase() ?? (DEFAULT_CREDENTIAL.test(key) ? '*' : undefined)
    if (host) hosts[host] = `${key} in ${origin}`
  }
  return hosts
}

/** npm's TLS trust: `cafile` (replacing Node's store for the registry), `strict-ssl=false` turning checks off. */
function trust(context: ToolContext): RelayTrust {
  const cafile = setting(context, 'cafile')
  const unverified = /^false$/i.test(setting(context, 'strict-ssl') ?? '') || setting(context, 'ca') ? ['*'] : []
  const proxied = proxyInEnvironment(context.env) || setting(context, 'proxy') || setting(context, 'https-proxy')
  const noProxy = setting(context, 'noproxy') ?? context.env.NO_PROXY ?? context.env.no_proxy ?? ''
  return { ...(cafile && { ca: { path: cafile, origin: 'npm cafile' } }), unverified, credentials: credentials(context), ...(proxied && { noProxy }) }
}

export const NPM_RELAY: RelaySupport = {
  protocol: 'npm',
  // The relay gives each tarball's URL on the index itself, which npm records in package-lock.json as it would
  // without resilient; --replace-registry-host sends the download of such a URL to the configured registry, the
  // relay (npm 9+; arborist reify.js matches the host name).
  // npm's noproxy applies to its own proxy settings and the environment's alike (@npmcli/agent).
  apply: (command, { url, secret, index, noProxy }, secrets) => withNpmrc(addNpmOptions(command, `--registry=${url}`, `--replace-registry-host=${new URL(index).hostname}`,
    ...(noProxy === undefined ? [] : [`--noproxy=${withLoopback(noProxy)}`])), { url, username: RELAY_USER, password: secret }, secrets),
  trust,
}
