import { messages } from './types.js'

// go 1.19 runs here (its source was not read: each template is checked against a capture of the binary); its
// network errors are the net package's (`dial tcp: lookup <host> on <resolver>: no such
// host`, `i/o timeout`) inside cmd/go's `go: <module>@<version>: <cause>`.
const MODFETCH = { repo: 'golang/go', file: 'src/cmd/go/internal/modfetch/proxy.go, fetch.go', version: '1.19.8', checkedAgainst: 'test/fixtures/output/go/captured-server-error.txt, captured-hash-mismatch.txt, captured-package-not-found-revision.txt' }
const CAPTURED = { repo: 'golang/go', file: 'binary output, captured in test/fixtures/output/go/', version: '1.19.8 (run here)' }
// cmd/go's TooNewError (go 1.21+), read at golang/go 10a01cd69; go 1.19 here predates it.
const TOOLCHAIN = { repo: 'golang/go', file: 'src/cmd/go/internal/gover/toolchain.go (TooNewError)', version: '1.21+ (10a01cd69)' }
const NET = { repo: 'golang/go', file: 'src/net/net.go, dnsclient_unix.go', version: '1.19.8', checkedAgainst: 'test/fixtures/output/go/captured-dns.txt, captured-connection.txt, captured-proxy.txt' }
// The resolver's own words, read here: DNSError.Error() is "lookup <name> on <server>: <err>" (src/net/net.go); a
// reply that is neither an answer nor NXDOMAIN is errServerMisbehaving, a DNS read that times out is the dial's
// "i/o timeout" (src/net/dnsclient_unix.go).
const RESOLVER = { repo: 'golang/go', file: 'src/net/dnsclient_unix.go (errServerMisbehaving, tryOneName), src/net/net.go (DNSError.Error)', version: 'master (01340f00f0)' }

export const GO = [
  ...messages(NET, [
    ['any-dns', 'go: {package}@v{version}: Get "{url}": dial tcp: lookup {host} on 127.0.0.53:53: no such host'],
    ['any-timeout', 'go: {package}@v{version}: Get "{url}": dial tcp {ip}:{port}: i/o timeout'],
    ['any-connection', 'go: {package}@v{version}: Get "{url}": dial tcp {ip}:{port}: connect: connection refused'],
    ['any-proxy', 'go: {package}@v{version}: Get "{url}": proxyconnect tcp: dial tcp {ip}:{port}: connect: connection refused'],
  ]),
  ...messages(RESOLVER, [
    ['any-dns', 'go: {package}@v{version}: Get "{url}": dial tcp: lookup {host} on 10.0.2.3:53: server misbehaving'],
    ['any-dns', 'go: {package}@v{version}: Get "{url}": dial tcp: lookup {host} on 10.0.2.3:53: read udp 10.0.2.15:48213->10.0.2.3:53: i/o timeout'],
  ]),
  ...messages(CAPTURED, [['go-toolchain-version', 'note: module requires Go 1.99']]),
  ...messages(TOOLCHAIN, [['go-toolchain-version', 'go: go.mod requires go >= {version} (running go {version}; GOTOOLCHAIN=local)']]),
  ...messages(MODFETCH, [
    ['status', 'go: {package}@v{version}: reading {url}: {status} {reason}'],
    ['any-hash-mismatch', 'verifying {package}@v{version}: checksum mismatch'],
    ['go-no-matching-versions', 'go: {package}@v{version}: invalid version: unknown revision v{version}'],
  ]),
]
