import { messages } from './types.js'

// pnpm prints ` ERR_PNPM_<CODE>  <message>` on stdout (not stderr), then a hint paragraph. Read in the published
// bundle of 10.34.9 (dist/pnpm.cjs), built from these packages.
const RETRY = { repo: 'pnpm/pnpm', file: 'dist/pnpm.cjs (the published bundle)', version: '10.34.9' }
const FETCH = { repo: 'pnpm/pnpm', file: 'dist/pnpm.cjs (the published bundle)', version: '10.34.9' }
const RESOLVER = { repo: 'pnpm/pnpm', file: 'dist/pnpm.cjs (the published bundle)', version: '10.34.9' }
const STORE = { repo: 'pnpm/pnpm', file: 'dist/pnpm.cjs (the published bundle)', version: '10.34.9' }
const LOCKFILE_INTEGRITY = { repo: 'pnpm/pnpm', file: 'dist/pnpm.cjs (the published bundle)', version: '10.34.9' }
const INSTALLABLE = { repo: 'pnpm/pnpm', file: 'dist/pnpm.cjs (the published bundle)', version: '10.34.9' }
const ERRORS = { repo: 'pnpm/pnpm', file: 'dist/pnpm.cjs (the published bundle: FetchError, PeerDependencyIssuesError, reportLifecycleError)', version: '10.34.9' }

export const PNPM = [
  ...messages(RETRY, [['any-timeout', 'GET {url} error (ERR_SOCKET_TIMEOUT). Will retry in 10 seconds. 2 retries left.']], ' WARN  '),
  ...messages(FETCH, [['status', 'ERR_PNPM_FETCH_{status}  GET {url}: {reason} - {status}']], ' '),
  ...messages(RESOLVER, [
    ['any-connection', 'ERR_PNPM_META_FETCH_FAIL  GET {url}: request to {url} failed, reason: read ECONNRESET'],
    ['any-connection', 'ERR_PNPM_META_FETCH_FAIL  GET {url}: request to {url} failed, reason: connect ECONNREFUSED {ip}:{port}'],
    ['any-dns', 'ERR_PNPM_META_FETCH_FAIL  GET {url}: request to {url} failed, reason: getaddrinfo ENOTFOUND {host}'],
    ['any-timeout', 'ERR_PNPM_META_FETCH_FAIL  GET {url}: request to {url} failed, reason: network timeout at: {url}'],
    ['npm-no-matching-version', 'ERR_PNPM_NO_MATCHING_VERSION  No matching version found for {package}@{range} while fetching it from {url}'],
  ], ' '),
  ...messages(STORE, [['npm-integrity', 'ERR_PNPM_TARBALL_INTEGRITY  Got unexpected checksum for "{url}". Wanted "{integrity}". Got "{integrity}".']], ' '),
  ...messages(LOCKFILE_INTEGRITY, [['pnpm-missing-integrity', 'ERR_PNPM_MISSING_TARBALL_INTEGRITY  Cannot install package "{package}@{version}": its lockfile entry has no "integrity" field, so pnpm cannot verify the downloaded tarball.']], ' '),
  ...messages(ERRORS, [
    ['any-credentials-rejected', 'ERR_PNPM_FETCH_401  GET {url}: Unauthorized - 401\n\nAn authorization header was used: Bearer npm_[hidden]'],
    ['npm-eresolve', 'ERR_PNPM_PEER_DEP_ISSUES  Unmet peer dependencies'],
    ['npm-build-failure', 'ELIFECYCLE  Command failed with exit code {n}.'],
  ], ' '),
  ...messages(INSTALLABLE, [['pnpm-unsupported-engine', 'ERR_PNPM_UNSUPPORTED_ENGINE  Unsupported engine for {package}@{version}: wanted: {"node":"{range}"} (current: {"node":"v{version}","pnpm":"{version}"})']], ' '),
]
