import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { withEnv, withFile } from '../argv/command-line.js'
import { withNetrc } from '../source/credentials.js'
import { goSetting } from '../config/go-env.js'
import { sameIndex } from '../../url.js'
import { RELAY_USER, type RelaySupport, type RelayTrust } from './relay-support.js'
import { netrcHosts } from './netrc-hosts.js'
import type { ToolContext } from '../types.js'

// go's own list when GOPROXY is unset (go help environment).
const GO_DEFAULT_PROXY = 'https://proxy.golang.org,direct'
// Where go finds its roots on Linux unless SSL_CERT_FILE and SSL_CERT_DIR say otherwise (crypto/x509/root_linux.go):
// the first bundle that exists, and every file of every folder.
const GO_CERT_FILES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/ca-bundle.pem', '/etc/pki/tls/cacert.pem', '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem', '/etc/ssl/cert.pem']
const GO_CERT_DIRS = ['/etc/ssl/certs', '/etc/pki/tls/certs', '/system/etc/security/cacerts', '/data/misc/keychain/certs-added']
const certDirs = (env: NodeJS.ProcessEnv) => env.SSL_CERT_DIR ? env.SSL_CERT_DIR.split(':').filter(Boolean) : GO_CERT_DIRS

/**
 * The person's GOPROXY list with the index's entry, and that entry only, replaced by the relay: `direct` and `off`
 * entries and the `,` (only on 404/410) and `|` (on any error) separators stay where they are, so go falls through
 * its list as it would without resilient. An index the list does not name (resilient's own `go.index`) goes first,
 * followed by `direct` as the restart loop's GOPROXY does.
 */
export function goproxyWithRelay(list: string | undefined, index: string, relay: string): string {
  const parts = (list || GO_DEFAULT_PROXY).split(/([,|])/)
  const at = parts.findIndex((part, position) => position % 2 === 0 && /^https?:\/\//i.test(part.trim()) && sameIndex(part.trim(), index))
  if (at < 0) return `${relay},direct`
  parts[at] = relay
  return parts.join('')
}

/**
 * go's TLS trust and the credentials it sends by itself. It verifies with SSL_CERT_FILE (else the first system
 * bundle there is) plus every certificate in SSL_CERT_DIR's folders (else the system's): with neither set, Node's own
 * store stands for the system's; with either, the relay trusts what go would. It sends a netrc's credentials to https
 * proxies (cmd/go/internal/web/http.go, cmd/go/internal/auth), and GOAUTH's (go 1.24+) when set to anything but `netrc`.
 */
function trust(context: ToolContext): RelayTrust {
  const { env } = context
  const bundle = env.SSL_CERT_FILE ? { path: env.SSL_CERT_FILE, origin: 'SSL_CERT_FILE' } : env.SSL_CERT_DIR ? systemBundle() : undefined
  const goauth = goSetting('GOAUTH', context)
  const credentials = { ...netrcHosts(env, context.home), ...(goauth && goauth.value.trim() !== 'netrc' && { '*': goauth.origin }) }
  return { ...(bundle && { ca: bundle }), ...(env.SSL_CERT_DIR && { caDirs: certDirs(env) }), unverified: [], credentials }
}

function systemBundle(): { path: string; origin: string } | undefined {
  const path = GO_CERT_FILES.find(file => existsSync(file))
  return path ? { path, origin: 'the system bundle go reads' } : undefined
}

export const GO_RELAY: RelaySupport = {
  protocol: 'goproxy',
  // go verifies with the platform's own verifier on macOS and Windows (crypto/x509 root_darwin.go, root_windows.go),
  // where SSL_CERT_DIR cannot make it trust the relay's certificate.
  unsupported: () => process.platform === 'linux' ? undefined : `go trusts only the system's certificates on ${process.platform}, not the relay's`,
  /**
   * GOPROXY names the relay (https: go sends credentials over https only), the relay's secret is in a netrc (the
   * person's own plus the relay's machine, NETRC), and the relay's certificate is one more trusted folder: the run's
   * private directory ahead of go's own folders in SSL_CERT_DIR (go reads every file of them as PEM and skips what is
   * not; SSL_CERT_FILE stays as it is). GOPRIVATE, GONOPROXY and GONOSUMDB are left alone: go sends private modules to
   * no proxy, the relay included. GOSUMDB too: the checksum database is asked as go would (src/relay/protocol-goproxy.ts).
   */
  apply: (command, { url, secret, index, certificate }, secrets) => {
    const env = secrets.env
    const proxy = goproxyWithRelay(goSetting('GOPROXY', { env, home: env.HOME ?? '' })?.value, index, url.replace(/\/$/, ''))
    const withCert = certificate ? withFile(withEnv(command, { SSL_CERT_DIR: [secrets.scratch.path, ...certDirs(secrets.env)].join(':') }), { path: join(secrets.scratch.path, 'resilient-relay.pem'), content: certificate }) : command
    return withNetrc(withEnv(withCert, { GOPROXY: proxy }), { url, username: RELAY_USER, password: secret }, secrets)
  },
  trust,
  // go's client for proxies has no timeout of its own (cmd/go/internal/web/http.go securityPreservingHTTPClient).
  readTimeoutMs: () => Infinity,
}
