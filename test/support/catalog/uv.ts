import { messages } from './types.js'

// uv 0.12.5 (astral-sh/uv at 26a9dd4b21), read here with git: every template below is the `#[error("…")]`, `write!`
// or `format!` text of the file cited, or the reqwest 0.13 / hyper-util 0.1 text uv chains below it. uv prints
// `error: <context>` then `Caused by: <cause>` lines (0.1-0.4), or a miette tree: `× <context>`, `├─▶ <cause>`,
// `╰─▶ <innermost>`, then `help:`/`hint:` lines.
const READ = '0.12.5 (26a9dd4b21)'
const REGISTRY = { repo: 'astral-sh/uv', file: 'crates/uv-client/src/registry_client.rs', version: READ }
const CLIENT_ERROR = { repo: 'astral-sh/uv', file: 'crates/uv-client/src/error.rs (WrappedReqwestError, RetryError)', version: READ }
const AUTH = { repo: 'astral-sh/uv', file: 'crates/uv-auth/src/middleware.rs', version: READ }
const REPORT = { repo: 'astral-sh/uv', file: 'crates/uv-resolver/src/pubgrub/report.rs', version: READ }
const PROJECT = { repo: 'astral-sh/uv', file: 'crates/uv/src/commands/project/mod.rs', version: READ }
const DISCOVERY = { repo: 'astral-sh/uv', file: 'crates/uv-python/src/discovery.rs', version: READ }
const DISTRIBUTION = { repo: 'astral-sh/uv', file: 'crates/uv-distribution/src/error.rs', version: READ }
const LOCK = { repo: 'astral-sh/uv', file: 'crates/uv-fs/src/locked_file.rs', version: READ }
const CACHE_CLEAN = { repo: 'astral-sh/uv', file: 'crates/uv/src/commands/cache_clean.rs', version: READ }
const REQWEST = { repo: 'seanmonstar/reqwest', file: 'src/error.rs (Display of Kind, TimedOut)', version: '0.13.4' }
const HYPER = { repo: 'hyperium/hyper', file: 'src/error.rs (IncompleteMessage), src/proto/h1/decode.rs (IncompleteBody)', version: '1.11.0 (v1.11.0)' }
const REQUIREMENTS_TXT = { repo: 'astral-sh/uv', file: 'crates/uv-requirements-txt/src/lib.rs', version: READ }
const HYPER_UTIL = { repo: 'hyperium/hyper-util', file: 'src/client/legacy/connect/http.rs, client.rs', version: '0.1.20' }
// rustls' certificate error as uv 0.1-0.4 chained it (its other TLS errors: rust-tls.ts, read at rustls 0.23.43).
const RUSTLS = { repo: 'rustls/rustls', file: 'rustls/src/error.rs (as uv chains it)', version: '0.23.43 (v/0.23.43)', checkedAgainst: 'astral-sh/uv#1917' }
// A lock the file system refuses: uv's LockedFileError::Lock over fs-err's "failed to lock `<path>`: <io error>"
// (andrewhickman/fs-err src/errors.rs at 4dedcc51f9); glibc words the kernel's ENOTSUPP "Unknown error 524".
const LOCK_UNSUPPORTED = { repo: 'astral-sh/uv', file: 'crates/uv-cache/src/lib.rs, crates/uv-fs/src/locked_file.rs (LockedFileError::Lock), with fs-err src/errors.rs', version: READ, checkedAgainst: 'NERSC/interactEM#532' }
// Through a proxy: reqwest 0.13 tunnels with hyper-util (src/client/legacy/connect/proxy/tunnel.rs); reqwest 0.12
// (uv before 0.9) formed its own tunnel errors (src/connect.rs, read at tag v0.12.9), and refuses a proxy URL whose
// scheme it does not know (src/proxy.rs, 0.13.4).
const TUNNEL = { repo: 'hyperium/hyper-util', file: 'src/client/legacy/connect/proxy/tunnel.rs (TunnelError)', version: '0.1.20-22 (4684c71)' }
const TUNNEL_012 = { repo: 'seanmonstar/reqwest', file: 'src/connect.rs (tunnel)', version: '0.12.9 (v0.12.9)' }
const PROXY_SCHEME = { repo: 'seanmonstar/reqwest', file: 'src/proxy.rs', version: '0.13.4' }
// A wheel is inflated while it downloads: a corrupted body stops async-compression's flate decoder (0.4.19, uv's
// Cargo.lock; src/codec/flate/decoder.rs at v0.4.19) or fails the zip entry's CRC (crates/uv-extract/src/error.rs).
const EXTRACT = { repo: 'astral-sh/uv', file: 'crates/uv-distribution/src/error.rs, crates/uv-extract/src/error.rs, with Nullus157/async-compression src/codec/flate/decoder.rs (v0.4.19)', version: READ }
const OFFLINE = { repo: 'astral-sh/uv', file: 'crates/uv-client/src/error.rs (NoIndex, Offline), crates/uv-git/src/git.rs', version: READ }
// Older uv messages no longer in 0.12, kept for the logs users still paste.
const BUILD = { repo: 'astral-sh/uv', file: 'crates/uv-build-frontend/src/error.rs', version: '0.1-0.4', checkedAgainst: 'astral-sh/uv#1469' }
const PERSIST = { repo: 'astral-sh/uv', file: 'crates/uv-fs/src/lib.rs (persist_with_retry)', version: '0.4-0.9', checkedAgainst: 'astral-sh/uv#8664' }
const RESOLVER_LOG = { repo: 'astral-sh/uv', file: 'crates/uv-resolver/src/resolver/mod.rs (debug log, -v)', version: '0.1-0.9', checkedAgainst: 'astral-sh/uv#10552' }

const CHAIN_TIMEOUT = 'error: Request failed after 3 retries in {n}.4s\n  Caused by: Failed to fetch: `{url}`\n  Caused by: error sending request for url ({url})\n  Caused by: operation timed out'
const NOT_FOUND = '  ╰─▶ Because {package} was not found in the package registry and you require {package}, we can conclude that your requirements are unsatisfiable.'

export const UV = [
  ...messages(REGISTRY, [['any-timeout', '  Caused by: Failed to download distribution due to network timeout. Try increasing UV_HTTP_TIMEOUT (current value: {n}s).']]),
  ...messages(CLIENT_ERROR, [
    ['any-timeout', CHAIN_TIMEOUT],
    ['any-dns', '  ├─▶ Could not connect, are you offline?\n  ├─▶ error sending request for url ({url})\n  ├─▶ client error (Connect)\n  ├─▶ dns error: failed to lookup address information: Try again\n  ╰─▶ failed to lookup address information: Try again'],
  ]),
  ...messages(REQWEST, [
    ['status', '  Caused by: HTTP status server error ({status:5xx} {reason}) for url ({url})'],
    ['status', '  Caused by: HTTP status client error ({status:4xx} {reason}) for url ({url})'],
    ['any-timeout', '  ├─▶ error decoding response body\n  ├─▶ request or response body error\n  ╰─▶ operation timed out'],
  ]),
  ...messages(HYPER_UTIL, [
    ['any-dns', '  Caused by: dns error: failed to lookup address information: Name or service not known'],
    ['any-connection', '  Caused by: client error (Connect)\n  Caused by: tcp connect error: Connection refused (os error 111)'],
    ['any-timeout', '  Caused by: client error (Connect)\n  Caused by: tcp connect error: Connection timed out (os error 110)'],
  ]),
  ...messages(HYPER, [
    ['any-connection', '  Caused by: error sending request for url ({url})\n  Caused by: client error (SendRequest)\n  Caused by: connection closed before message completed'],
    ['any-connection', '  ├─▶ error decoding response body\n  ├─▶ request or response body error\n  ╰─▶ end of file before message length reached'],
  ]),
  ...messages(TUNNEL, [
    ['any-proxy', '  Caused by: client error (Connect)\n  Caused by: tunnel error: unsuccessful'],
    ['any-proxy', '  ├─▶ client error (Connect)\n  ╰─▶ tunnel error: proxy authorization required'],
    ['any-proxy', '  ├─▶ client error (Connect)\n  ╰─▶ tunnel error: unexpected end of file'],
  ]),
  ...messages(TUNNEL_012, [
    ['any-proxy', '  Caused by: error sending request for url ({url})\n  Caused by: client error (Connect)\n  Caused by: unsuccessful tunnel'],
    ['any-proxy', '  Caused by: client error (Connect)\n  Caused by: proxy authentication required'],
    ['any-proxy', '  Caused by: client error (Connect)\n  Caused by: unexpected eof while tunneling'],
  ]),
  ...messages(PROXY_SCHEME, [['any-proxy', '  Caused by: builder error\n  Caused by: unknown proxy scheme']]),
  ...messages(REQUIREMENTS_TXT, [['pip-invalid-requirement', "error: Couldn't parse requirement in `requirements.txt` at position 0"]]),
  ...messages(RUSTLS, [['any-ssl', '  Caused by: invalid peer certificate: UnknownIssuer']]),
  ...messages(AUTH, [['any-http-auth', '  ├─▶ Failed to fetch: `{url}`\n  ╰─▶ Missing credentials for {url}']]),
  ...messages(REPORT, [
    ['uv-package-not-found', NOT_FOUND],
    // A 401/403 explains the "not found" uv concludes from it: authentication before absence.
    ['any-http-auth', `${NOT_FOUND}\n\n      hint: An index URL ({url}) could not be queried due to a lack of valid authentication credentials (401 Unauthorized).`],
    ['any-http-auth', `${NOT_FOUND}\n\n      hint: An index ({url}) returned a 403 Forbidden error. Check that the index URL is correct and the credentials are valid.`],
    ['any-http-auth', '      hint: An index URL ({url}) could not be queried due to a lack of valid authentication credentials (403 Forbidden).'],
    ['uv-python-version', '  ╰─▶ Because the current Python version ({python}) does not satisfy Python>={python} and {package}=={version} depends on Python>={python}, we can conclude that {package}=={version} cannot be used.'],
    ['uv-python-version', '      hint: The `requires-python` value (>={python}) includes Python versions that are not supported by your dependencies (e.g., {package}=={version} only supports >={python}). Consider using a more restrictive `requires-python` value (like >={python}).'],
    ['uv-no-solution', '  ╰─▶ Because you require {package}=={version} and {package}=={version}, we can conclude that your requirements are unsatisfiable.'],
  ]),
  ...messages(PROJECT, [['uv-python-version', "error: The requested interpreter resolved to Python {python}, which is incompatible with the project's Python requirement: `>={python}`"]]),
  ...messages(DISCOVERY, [
    ['uv-python-version', 'error: No interpreter found for Python {python} in managed installations or search path'],
    ['uv-python-version', '  × No interpreter found in virtual environments, managed installations, or search path'],
  ]),
  ...messages(EXTRACT, [
    ['any-hash-mismatch', '  × Failed to download `{package}=={version}`\n  ├─▶ Failed to extract archive: {package}-{version}-py3-none-any.whl\n  ├─▶ I/O operation failed during extraction\n  ╰─▶ unexpected BufError'],
    ['any-hash-mismatch', '  ├─▶ Failed to extract archive: {package}-{version}-py3-none-any.whl\n  ╰─▶ Bad CRC (got 1c291ca3, expected 8a1f0d52) for file: {package}/__init__.py'],
  ]),
  ...messages(OFFLINE, [
    ['any-offline-mode', "  ╰─▶ Network connectivity is disabled, but the requested data wasn't found in the cache for: `{url}`"],
    ['any-offline-mode', '  ╰─▶ Remote Git fetches are not allowed because network connectivity is disabled (i.e., with `--offline`)'],
    ['any-offline-mode', "  ╰─▶ {package} isn't available locally, but making network requests to registries was banned"],
  ]),
  ...messages(DISTRIBUTION, [
    ['uv-hash-mismatch', '  ╰─▶ Hash mismatch for `{package}=={version}`\n\n      Expected:\n        sha256:6574241a3ec5fdc9334353ab8c479fe75841dbe8f4532a8fc97ce63503330ba1\n\n      Computed:\n        sha256:b90bed3df379fa79afbd21be8e04a0314336b8ae16768b58f2d34cb1d04cd7d2'],
    ['uv-python-version', '  ╰─▶ The source distribution requires Python {python}, but {python} is installed'],
  ]),
  ...messages(LOCK, [
    ['uv-lock-busy', 'Waiting to acquire exclusive lock for `{path}` at `{path}`'],
    ['uv-lock-busy', 'error: Timeout ({n}s) when waiting for lock on `{path}` at `{path}`, is another uv process running? You can set `UV_LOCK_TIMEOUT` to increase the timeout.'],
  ]),
  ...messages(LOCK_UNSUPPORTED, [['any-lock-unsupported', 'error: Could not acquire lock\n  Caused by: Could not acquire lock for `{path}` at `{path}`\n  Caused by: failed to lock `{path}`: Unknown error 524 (os error 524)']]),
  ...messages(CACHE_CLEAN, [['uv-lock-busy', 'Cache is currently in-use, waiting for other uv processes to finish (use `--force` to override)']]),
  ...messages(BUILD, [['uv-build-failure', 'error: Build backend failed to determine metadata through `prepare_metadata_for_build_wheel` (exit status: 1)']]),
  ...messages(PERSIST, [['uv-file-in-use', 'error: Failed to persist temporary file to {path}: Access is denied. (os error 5)']]),
  ...messages(RESOLVER_LOG, [['uv-package-not-found', 'DEBUG No compatible version found for: {package}']]),
]
