import { findOptions } from '../argv/args.js'
import { withNetrc } from '../source/credentials.js'
import { withArgs } from '../argv/command-line.js'
import { readPipConfig } from '../config/pip-config.js'
import { pipEnv, pipSubcommand } from '../source/pip-index.js'
import { proxyInEnvironment, RELAY_USER, relayNoProxyEnv, type RelaySupport, type RelayTrust } from './relay-support.js'
import { withEnv } from '../argv/command-line.js'
import { pipPatience } from '../source/pip-patience.js'
import type { ToolContext } from '../types.js'
import { netrcHosts } from './netrc-hosts.js'

const REPORT = { long: ['--report'], minPrefix: 5, takesValue: true }
const CERT = { long: ['--cert'], minPrefix: 4, takesValue: true }
const TRUSTED = { long: ['--trusted-host'], minPrefix: 4, takesValue: true }
const PROXY = { long: ['--proxy'], minPrefix: 4, takesValue: true }
const CLIENT_CERT = { long: ['--client-cert'], minPrefix: 4, takesValue: true }
/**
 * pip's TLS trust, as requests applies it (pip/_internal/network/session.py, requests sessions.py): `--cert`,
 * PIP_CERT or pip.conf's `cert` first, else REQUESTS_CA_BUNDLE, else CURL_CA_BUNDLE, else its own bundle (certifi,
 * the same Mozilla list as Node's). `--trusted-host` (anywhere) turns verification off for that host.
 */
export function pipTrust({ args, env, home, executable, cwd }: ToolContext): RelayTrust {
  const site = { executable, cwd }
  const isolated = args.includes('--isolated')
  const command = pipSubcommand(args)
  const fromArgs = findOptions(args, CERT).at(-1)?.value
  const fromPip = fromArgs ? { path: fromArgs, origin: '--cert' } : !isolated && pipEnv(env, ['cert'])
    ? { path: pipEnv(env, ['cert'])!.value, origin: pipEnv(env, ['cert'])!.name } : undefined
  const fromConfig = !fromPip && !isolated ? readPipConfig('cert', command, env, home, site) : undefined
  const ca = fromPip ?? (fromConfig?.value ? { path: fromConfig.value, origin: fromConfig.origin } : undefined)
    ?? (env.REQUESTS_CA_BUNDLE ? { path: env.REQUESTS_CA_BUNDLE, origin: 'REQUESTS_CA_BUNDLE' } : env.CURL_CA_BUNDLE ? { path: env.CURL_CA_BUNDLE, origin: 'CURL_CA_BUNDLE' } : undefined)
  const trusted = [...findOptions(args, TRUSTED).map(option => option.value ?? ''), ...(!isolated ? (pipEnv(env, ['trusted-host'])?.value ?? '').split(/\s+/) : []),
    ...(!isolated ? (readPipConfig('trusted-host', command, env, home, site)?.value ?? '').split(/\s+/) : [])].filter(Boolean)
  // pip's own proxy is used for every URL, loopback included (requests merges it over NO_PROXY).
  const proxy = findOptions(args, PROXY).length ? '--proxy' : !isolated ? pipEnv(env, ['proxy'])?.name ?? readPipConfig('proxy', command, env, home, site)?.origin : undefined
  // A client certificate (a PEM with its key) is presented by pip itself: the relay has none to present.
  const clientCert = findOptions(args, CLIENT_CERT).length ? '--client-cert' : !isolated ? pipEnv(env, ['client-cert'])?.name ?? readPipConfig('client-cert', command, env, home, site)?.origin : undefined
  return { ...(ca && { ca }), unverified: trusted, credentials: netrcHosts(env, home), ...(proxy && { proxy }), ...(clientCert && { carries: `a client certificate (${clientCert})` }),
    ...(proxyInEnvironment(env) && { noProxy: env.no_proxy ?? env.NO_PROXY ?? '' }) }
}

export const PIP_RELAY: RelaySupport = {
  protocol: 'pypi',
  // An install report lists each file's URL: through the relay it would name the relay's.
  unsupported: args => findOptions(args, REPORT).length ? 'pip --report records download URLs' : pipSubcommand(args) === 'lock' ? 'pip lock records download URLs' : undefined,
  // pip keeps plain-http answers in its HTTP cache only from a trusted host (network/session.py), so the relay is
  // one: it is on loopback, where nothing is verified anyway.
  apply: (command, { url, secret, noProxy }, secrets) => {
    const host = new URL(url).hostname
    const direct = withEnv(command, relayNoProxyEnv(noProxy, host))
    return withNetrc(withArgs(direct, '--index-url', url, '--trusted-host', new URL(url).host), { url, username: RELAY_USER, password: secret }, secrets)
  },
  trust: pipTrust,
  readTimeoutMs: context => pipPatience(context).timeoutMs,
}
