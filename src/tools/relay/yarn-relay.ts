import { withEnv } from '../argv/command-line.js'
import { npmrcCredentials, type NpmSettingReader } from './npm-relay.js'
import { proxyInEnvironment, RELAY_USER, type RelaySupport, type RelayTrust } from './relay-support.js'
import type { CommandLine, ToolContext } from '../types.js'

// yarn 1's default network-timeout (src/constants.js NETWORK_TIMEOUT): 30 s.
const NETWORK_TIMEOUT = 30_000

export interface YarnSettings {
  /** One of yarn 1's settings: its option, YARN_ and npm_config_ variables, .yarnrc, then the npmrc files. */
  read: NpmSettingReader
  /** The npmrc files yarn 1 reads here (credentials by host). */
  files(context: ToolContext): string[]
  /** Scope registries of the person's own (`@corp:registry`), wherever yarn 1 reads them. */
  scopes(context: ToolContext): string[]
  applyIndex(command: CommandLine, url: string): CommandLine
}

/**
 * yarn 1's trust: `cafile`, `ca` and `strict-ssl`, `proxy`/`https-proxy` of its own (sent every request, loopback
 * included), `cert`/`key`, and its tokens. The relay's secret goes as `_auth` with `always-auth`, which yarn 1 sends
 * to a scope's registry that has no credentials of its own (npm-registry.js getAuth): with a scope registry of the
 * person's own, the relay is not used.
 */
function trust(context: ToolContext, settings: YarnSettings): RelayTrust {
  const setting = (name: string) => settings.read(context, name)
  const cafile = setting('cafile')
  const unverified = /^false$/i.test(setting('strict-ssl') ?? '') || setting('ca') ? ['*'] : []
  const proxy = setting('https-proxy') ?? setting('proxy')
  const cert = ['cert', 'key'].find(name => setting(name))
  const own = ['_auth', '_authToken'].find(name => setting(name))
  const scope = settings.scopes(context)[0]
  return {
    ...(cafile && { ca: { path: cafile, origin: 'yarn cafile' } }), unverified,
    credentials: { ...npmrcCredentials(context, settings.files(context)), ...(own && { '*': own }) },
    ...(proxy && { proxy: `yarn's ${proxy === setting('proxy') ? 'proxy' : 'https-proxy'}` }),
    ...(cert && { carries: `a client certificate (yarn ${cert})` }),
    ...(scope && { keepsAway: `has a scope registry of its own (${scope}), to which it would send the relay's secret` }),
    // The environment's proxies reach yarn 1's request library too; no no-proxy list of its own to add the relay to.
    ...(proxyInEnvironment(context.env) && !proxy && { proxy: 'HTTP(S)_PROXY' }),
  }
}

/**
 * yarn 1 through the relay, pointed by `--registry`. yarn 1 writes every tarball's URL into yarn.lock (`resolved`)
 * and downloads that URL as written (yarnpkg/yarn#3330): so the relay keeps the index's URLs in packuments, yarn.lock
 * is plain yarn's, and the tarballs go to the index directly; only packuments go through the relay. Its secret goes
 * as npm_config__auth with npm_config_always_auth, which yarn 1 sends to its registry (the relay), not to another
 * host's tarball URL.
 */
export function yarnRelay(settings: YarnSettings): RelaySupport {
  return {
    protocol: 'npm',
    tarballs: 'index',
    apply: (command, { url, secret }) => withEnv(settings.applyIndex(command, url), {
      npm_config__auth: Buffer.from(`${RELAY_USER}:${secret}`).toString('base64'), npm_config_always_auth: 'true' }),
    trust: context => trust(context, settings),
    readTimeoutMs: context => {
      const value = Number(settings.read(context, 'network-timeout'))
      return Number.isFinite(value) && value > 0 ? value : NETWORK_TIMEOUT
    },
  }
}
