import { messages } from './types.js'

// uv cannot be installed here: each template is checked against a paste in the thread named, and cites the file that
// forms it. uv prints `error: <context>` then `Caused by: <cause>` lines (0.1-0.4) or a miette tree (`╰─▶ <cause>`).
const CLIENT = { repo: 'astral-sh/uv', file: 'crates/uv-client/src/error.rs', version: '0.4-0.9', checkedAgainst: 'astral-sh/uv#1917' }
const REPORT = { repo: 'astral-sh/uv', file: 'crates/uv-resolver/src/pubgrub/report.rs', version: '0.5-0.9', checkedAgainst: 'astral-sh/uv#13016' }
const LOCK = { repo: 'astral-sh/uv', file: 'crates/uv-fs/src/locked_file.rs', version: '0.8', checkedAgainst: 'astral-sh/uv#16112' }
const BUILD = { repo: 'astral-sh/uv', file: 'crates/uv-build-frontend/src/error.rs', version: '0.1-0.4', checkedAgainst: 'astral-sh/uv#1469' }
const CACHE_CLEAN = { repo: 'astral-sh/uv', file: 'crates/uv/src/commands/cache_clean.rs', version: '0.8-0.9', checkedAgainst: 'astral-sh/uv#16138' }
const PERSIST = { repo: 'astral-sh/uv', file: 'crates/uv-fs/src/lib.rs (persist_with_retry)', version: '0.4-0.9', checkedAgainst: 'astral-sh/uv#8664' }
const RESOLVER_LOG = { repo: 'astral-sh/uv', file: 'crates/uv-resolver/src/resolver/mod.rs (debug log, -v)', version: '0.1-0.9', checkedAgainst: 'astral-sh/uv#10552' }
const HASH = { repo: 'astral-sh/uv', file: 'crates/uv-extract/src/error.rs', version: '0.4-0.9', checkedAgainst: 'astral-sh/uv#5749' }

export const UV = [
  ...messages(CLIENT, [
    ['any-timeout', '  Caused by: Failed to download distribution due to network timeout. Try increasing UV_HTTP_TIMEOUT (current value: {n}s).'],
    ['any-dns', '  Caused by: dns error: failed to lookup address information: Name or service not known'],
    ['any-connection', '  Caused by: client error (Connect): tcp connect error: Connection refused (os error 111)'],
    ['status', '  Caused by: HTTP status server error ({status:5xx} {reason}) for url ({url})'],
    ['status', '  Caused by: HTTP status client error ({status:4xx} {reason}) for url ({url})'],
    ['any-ssl', '  Caused by: invalid peer certificate: UnknownIssuer'],
  ]),
  ...messages(REPORT, [
    ['uv-package-not-found', '  ╰─▶ Because {package} was not found in the package registry and you require {package}, we can conclude that your requirements are unsatisfiable.'],
    ['any-http-auth', '      hint: An index URL ({url}) could not be queried due to a lack of valid authentication credentials (401 Unauthorized).'],
    ['any-http-auth', '      hint: An index URL ({url}) could not be queried due to a lack of valid authentication credentials (403 Forbidden).'],
    ['uv-python-version', '  ╰─▶ Because the current Python version ({python}) does not satisfy Python>={python} and {package}=={version} depends on Python>={python}, we can conclude that {package}=={version} cannot be used.'],
    ['uv-no-solution', '  ╰─▶ Because you require {package}=={version} and {package}=={version}, we can conclude that your requirements are unsatisfiable.'],
  ]),
  ...messages(LOCK, [['uv-lock-busy', 'Waiting to acquire lock for `{path}` (lockfile: `{path}`)']]),
  ...messages(BUILD, [['uv-build-failure', 'error: Build backend failed to determine metadata through `prepare_metadata_for_build_wheel` (exit status: 1)']]),
  ...messages(CACHE_CLEAN, [['uv-lock-busy', 'Cache is currently in-use, waiting for other uv processes to finish (use `--force` to override)']]),
  ...messages(PERSIST, [['uv-file-in-use', 'error: Failed to persist temporary file to {path}: Access is denied. (os error 5)']]),
  ...messages(RESOLVER_LOG, [['uv-package-not-found', 'DEBUG No compatible version found for: {package}']]),
  ...messages(HASH, [['uv-hash-mismatch', '  Caused by: Hash mismatch for `{package}=={version}`']]),
]
