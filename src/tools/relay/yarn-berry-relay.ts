import { withEnv } from '../argv/command-line.js'
import { RELAY_USER, type RelaySupport, type RelayTrust } from './relay-support.js'
import type { ToolContext } from '../types.js'

/** A berry setting as berry reads it: YARN_<SCREAMING_SNAKE> in the environment, then the .yarnrc.yml files, nearest first. */
export type BerrySettingReader = (context: ToolContext, name: string) => { value: unknown; origin: string } | undefined

// berry's defaults (yarnpkg-core Configuration.ts): 60 s without data on a socket, 3 retries.
const HTTP_TIMEOUT = 60_000

/**
 * berry's TLS trust and credentials (yarnpkg-core Configuration.ts, plugin-npm npmConfigUtils). The relay's secret
 * goes as a top-level npmAuthIdent with npmAlwaysAuth (berry sends no credentials for an unscoped packument
 * otherwise), and berry sends the top-level ident to a scope's or a host's registry that has none of its own: with
 * npmScopes or npmRegistries set, the relay is not used, so that the secret reaches the relay alone.
 */
function trust(context: ToolContext, read: BerrySettingReader): RelayTrust {
  const text = (name: string) => {
    const found = read(context, name)
    return found && (typeof found.value === 'string' || typeof found.value === 'number' || typeof found.value === 'boolean') ? { value: String(found.value), origin: found.origin } : undefined
  }
  const ca = text('httpsCaFilePath') ?? text('caFilePath')
  const unverified = /^(false|0)$/i.test(text('enableStrictSsl')?.value ?? '') ? ['*'] : []
  const proxy = text('httpsProxy') ?? text('httpProxy')
  const cert = text('httpsCertFilePath') ?? text('httpsKeyFilePath')
  const token = text('npmAuthToken') ?? text('npmAuthIdent')
  const own = ['npmScopes', 'npmRegistries', 'networkSettings', 'unsafeHttpWhitelist'].map(name => ({ name, found: read(context, name) })).find(entry => entry.found)
  return {
    ...(ca && { ca: { path: ca.value, origin: `berry's CA file (${ca.origin})` } }), unverified,
    ...(token && { credentials: { '*': `a token in ${token.origin}` } }),
    ...(proxy && { proxy: proxy.origin }),
    ...(cert && { carries: `a client certificate (${cert.origin})` }),
    ...(own && { keepsAway: `has ${own.name} of its own (${own.found!.origin}), where the relay's address or secret would go too` }),
  }
}

/**
 * yarn berry through the relay, pointed by YARN_NPM_REGISTRY_SERVER. berry records a tarball URL in yarn.lock
 * (`::__archiveUrl=`) only when it is not the conventional one on its registry (plugin-npm NpmSemverResolver), and
 * fetches a locked package from its registry's conventional path: so the relay points tarballs at itself, under the
 * index's paths, and yarn.lock is plain berry's (a tarball at an unconventional path on the index would be written
 * with the relay's address: a limitation, docs/relay.md).
 */
export function yarnBerryRelay(read: BerrySettingReader): RelaySupport {
  return {
    protocol: 'npm',
    tarballs: 'relay',
    apply: (command, { url, secret }) => withEnv(command, {
      YARN_NPM_REGISTRY_SERVER: url.replace(/\/+$/, ''), YARN_UNSAFE_HTTP_WHITELIST: new URL(url).hostname,
      YARN_NPM_AUTH_IDENT: `${RELAY_USER}:${secret}`, YARN_NPM_ALWAYS_AUTH: 'true',
    }),
    trust: context => trust(context, read),
    readTimeoutMs: context => {
      const value = Number(read(context, 'httpTimeout')?.value)
      return Number.isFinite(value) && value > 0 ? value : HTTP_TIMEOUT
    },
  }
}
