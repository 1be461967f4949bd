import { withEnv } from '../argv/command-line.js'
import { proxyInEnvironment, relayNoProxyEnv, type RelaySupport, type RelayTrust } from './relay-support.js'
import type { CommandLine, ToolContext } from '../types.js'

export interface BunSettings {
  /** A TLS setting (`cafile`, `ca`) as bun reads it: `--cafile`/`--ca`, bunfig.toml's `[install]`, its npmrc files. */
  read(context: ToolContext, name: 'cafile' | 'ca'): string | undefined
  /**
   * Where bun would send credentials of its own, by host (`*`: its default registry, whichever it is): a token in
   * NPM_CONFIG_TOKEN or bunfig.toml's `[install] registry`, `_authToken`/`_auth` in the npmrc files it reads.
   */
  credentials(context: ToolContext): Record<string, string>
  /** How the command is given a registry (`--registry`, or BUN_CONFIG_REGISTRY for `bun x`, where a flag is the program's). */
  applyIndex(command: CommandLine, url: string): CommandLine
}

/** bun's TLS trust: a CA file or inline CA of its own; NODE_TLS_REJECT_UNAUTHORIZED=0 turns checks off (bun honours it). */
function trust(context: ToolContext, settings: BunSettings): RelayTrust {
  const cafile = settings.read(context, 'cafile')
  const unverified = context.env.NODE_TLS_REJECT_UNAUTHORIZED === '0' || settings.read(context, 'ca') ? ['*'] : []
  const noProxy = context.env.NO_PROXY ?? context.env.no_proxy ?? ''
  return { ...(cafile && { ca: { path: cafile, origin: 'bun cafile' } }), unverified, credentials: settings.credentials(context), ...(proxyInEnvironment(context.env) && { noProxy }) }
}

/**
 * bun through the relay. bun downloads each tarball from the packument's `dist.tarball` as given and writes that URL
 * into bun.lock, except on the default registry, registry.npmjs.org, whose entries it writes as `""` and later
 * fetches from whatever registry it is given (seen with bun 1.4: a URL on the relay would be written as it is). So
 * the relay keeps the index's URLs in packuments (RelaySupport.tarballs `index`): bun.lock is plain bun's, bun fetches
 * the tarballs of a new resolution from the index itself, and those of an existing bun.lock on registry.npmjs.org
 * through the relay. The secret goes as NPM_CONFIG_TOKEN, which bun sends (Bearer) to its default registry, the
 * relay, alone.
 */
export function bunRelay(settings: BunSettings): RelaySupport {
  return {
    protocol: 'npm',
    tarballs: 'index',
    apply: (command, { url, secret, noProxy }) => withEnv(settings.applyIndex(command, url), { NPM_CONFIG_TOKEN: secret, ...relayNoProxyEnv(noProxy, new URL(url).hostname) }),
    trust: context => trust(context, settings),
    // bun documents no timeout of its own for a registry request: the silence bound alone applies.
    readTimeoutMs: () => Number.POSITIVE_INFINITY,
  }
}
