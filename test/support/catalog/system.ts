import { messages } from './types.js'

// What the system prints under any tool: apt and dpkg holding their locks (apt 2.6.1 and dpkg 1.21 as installed on
// Debian 12, read with strings(1) in libapt-pkg and dpkg), and Node's errno lines.
const APT = { repo: 'salsa.debian.org/apt-team/apt', file: 'apt-pkg/contrib/fileutl.cc, apt-pkg/deb/debsystem.cc', version: '2.6.1' }
const DPKG = { repo: 'salsa.debian.org/dpkg-team/dpkg', file: 'src/main/archives.c, lib/dpkg/lock.c', version: '1.21.22' }
const NODE_ESM = { repo: 'nodejs/node', file: 'lib/internal/modules/esm/resolve.js', version: '20.20.2 (run here)' }
const CURL = { repo: 'curl/curl', file: 'lib/connect.c (verbose), with glibc strerror(ENETUNREACH)', version: '7.x-8.x', checkedAgainst: 'mamba-org/mamba#3784' }
const ZLIB = { repo: 'nodejs/node', file: 'lib/zlib.js (Z_BUF_ERROR), as npm 11, pnpm 10 and yarn 1.22 print it (captured-hash-mismatch-truncated-gzip.txt)', version: '20.20.2 (run here)' }
const NODE = { repo: 'nodejs/node', file: 'lib/internal/errors.js (dnsException, exceptionWithHostPort)', version: '20' }
// Node's fs and socket errors (uvException, errnoException), as Node 20.20.2 prints them here (renaming /proc, unlinking
// in /proc; util.getSystemErrorMap for the socket codes).
const NODE_UV = { repo: 'nodejs/node', file: 'lib/internal/errors.js (uvException, errnoException)', version: '20.20.2 (run here)' }
const APT_HTTP = { repo: 'salsa.debian.org/apt-team/apt', file: 'methods/connect.cc (in /usr/lib/apt/methods/http, read with strings(1))', version: '2.6.1' }
// git prints libcurl's error after `unable to access`; curl before 7.69 worded a proxy's refusal this way (newer curl:
// "CONNECT tunnel failed, response 407", captured with git 2.39.5 in test/fixtures/output/pip/captured-proxy-407-git.txt).
const CURL_PROXY = { repo: 'curl/curl', file: 'lib/http_proxy.c (Curl_proxyCONNECT), as git prints it', version: '7.64.0 (curl-7_64_0)', checkedAgainst: 'test/fixtures/output/pip/captured-proxy-407-git.txt' }

export const SYSTEM = [
  ...messages(APT, [
    ['any-lock-busy', 'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process {pid} (apt-get)'],
    ['any-lock-busy', 'E: Unable to lock the administration directory (/var/lib/dpkg/), is another process using it?'],
    ['any-lock-busy', 'E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?'],
  ]),
  ...messages(APT_HTTP, [['any-dns', "  Temporary failure resolving '{host}'"]]),
  ...messages(CURL_PROXY, [['any-proxy', "fatal: unable to access 'https://{host}/acme/tool.git/': Received HTTP code 407 from proxy after CONNECT"]]),
  ...messages(DPKG, [['any-lock-busy', 'dpkg: error: dpkg frontend lock was locked by another process with pid {pid}']]),
  ...messages(NODE_ESM, [['node-module-not-found', "Error [ERR_MODULE_NOT_FOUND]: Cannot find package '{package}' imported from {path}"]]),
  ...messages(CURL, [['any-connection', '* Immediate connect fail for {ip}: Network is unreachable']]),
  ...messages(ZLIB, [
    ['any-hash-mismatch', 'npm error code Z_BUF_ERROR'],
    ['any-hash-mismatch', 'npm error zlib: unexpected end of file'],
    ['any-hash-mismatch', ' ERR_PNPM_Z_BUF_ERROR  Failed to add tarball from "{url}" to store: unexpected end of file'],
    ['any-hash-mismatch', 'error Error: unexpected end of file'],
  ]),
  ...messages(NODE, [
    ['any-dns', 'Error: getaddrinfo ENOTFOUND {host}'],
    ['any-connection', 'Error: connect ECONNREFUSED {ip}:{port}'],
    ['any-timeout', 'Error: connect ETIMEDOUT {ip}:{port}'],
    ['any-connection', 'Error: read ECONNRESET'],
  ]),
  ...messages(NODE_UV, [
    ['any-lock-busy', "Error: EBUSY: resource busy or locked, rename '{path}' -> '{path}'"],
    ['any-permission', "Error: EPERM: operation not permitted, unlink '{path}'"],
    ['any-connection', 'Error: write EPIPE'],
    ['any-connection', 'Error: read ECONNABORTED'],
  ]),
]
