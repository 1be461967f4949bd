import { findOptions } from '../argv/args.js'
import { withEnv } from '../argv/command-line.js'
import { withNetrc } from '../source/credentials.js'
import { pipEnv } from '../source/pip-index.js'
import { pipPatience } from '../source/pip-patience.js'
import { pipCommandOfPipx, pipxArgs } from '../source/pipx-index.js'
import type { ToolContext } from '../types.js'
import { PIP_RELAY, pipTrust } from './pip-relay.js'
import { RELAY_USER, relayNoProxyEnv, type RelaySupport, type RelayTrust } from './relay-support.js'

const BACKEND = { long: ['--backend'], minPrefix: 4, takesValue: true }

/** The pip command pipx runs, read as pip reads its settings (--pip-args, PIP_*, pip.conf). */
export const asPip = (context: ToolContext): ToolContext => ({ ...context, args: pipCommandOfPipx(context.args) })

/**
 * pipx runs pip in the app's venv with its own environment passed on whole (pipx util.py run_subprocess: only
 * PYTHONPATH and __PYVENV_LAUNCHER__ removed), so pip's trust is pipx's. pipx 1.8+ may run uv instead (`--backend`,
 * PIPX_DEFAULT_BACKEND, or on its own when uv is there): a host uv does not verify (UV_INSECURE_HOST) counts too.
 */
function trust(context: ToolContext): RelayTrust {
  const pip = pipTrust(asPip(context))
  const insecure = (context.env.UV_INSECURE_HOST ?? '').split(/[\s,]+/).filter(Boolean)
  // A client certificate uv would present (SSL_CLIENT_CERT), should pipx pick uv on its own.
  const uvCert = context.env.SSL_CLIENT_CERT ? { carries: 'a client certificate for its uv backend (SSL_CLIENT_CERT)' } : {}
  const uvChosen = context.env.PIPX_DEFAULT_BACKEND === 'uv' ? { carries: 'its requests through uv (PIPX_DEFAULT_BACKEND=uv), whose TLS settings are not read here' } : {}
  if (pip.carries) return { ...pip, unverified: [...pip.unverified, ...insecure] }
  return { ...pip, unverified: [...pip.unverified, ...insecure], ...uvCert, ...uvChosen }
}

/**
 * pipx through the relay: pointed by PIP_INDEX_URL (and UV_INDEX_URL for its uv backend), variables pipx passes to
 * its backend and never records (pipx_metadata.json keeps `--index-url` and `--pip-args` only, main.py
 * get_pip_args); the secret in a private netrc named by NETRC, which pip (requests get_netrc_auth) and uv read.
 */
export const PIPX_RELAY: RelaySupport = {
  protocol: 'pypi',
  unsupported(args) {
    const { own } = pipxArgs(args)
    // uv's trust is read from other settings (SSL_CERT_FILE, UV_NATIVE_TLS, uv.toml) than pip's, which are what is checked here.
    if (findOptions(own, BACKEND).at(-1)?.value === 'uv') return 'pipx --backend uv: uv\'s TLS settings are not read here'
    return PIP_RELAY.unsupported?.(pipCommandOfPipx(args))
  },
  apply(command, { url, secret, noProxy }, secrets) {
    const host = new URL(url).host
    const direct = withEnv(command, relayNoProxyEnv(noProxy, new URL(url).hostname))
    // pip keeps plain-http answers in its HTTP cache only from a trusted host (network/session.py), as for pip; the
    // person's own trusted hosts stay (pip splits the variable on whitespace), under the spelling they used.
    const trusted = pipEnv(secrets.env, ['trusted-host'])
    const trustedHosts = { [trusted?.name ?? 'PIP_TRUSTED_HOST']: trusted ? `${trusted.value} ${host}` : host }
    return withNetrc(withEnv(direct, { PIP_INDEX_URL: url, UV_INDEX_URL: url, ...trustedHosts }), { url, username: RELAY_USER, password: secret }, secrets)
  },
  trust,
  readTimeoutMs: context => pipPatience(asPip(context)).timeoutMs,
}
