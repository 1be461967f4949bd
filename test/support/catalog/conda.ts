import { messages } from './types.js'

// conda, mamba and micromamba cannot be installed here: each template is checked against a paste in the thread
// named, and cites the file that forms it.
const EXCEPTIONS = { repo: 'conda/conda', file: 'conda/exceptions.py', version: '4.x-24.x', checkedAgainst: 'conda/conda#9948' }
const REPODATA = { repo: 'conda/conda', file: 'conda/gateways/repodata/__init__.py (conda_http_errors)', version: '23.x-24.x', checkedAgainst: 'conda/conda#11795' }
const PATH_ACTIONS = { repo: 'conda/conda', file: 'conda/core/path_actions.py', version: '4.4-24.x', checkedAgainst: 'conda/conda#6859' }
const BUILD_LOCK = { repo: 'tox-dev/filelock', file: 'src/filelock/_error.py (conda-build waits on .conda_lock with it)', version: '3.9.0 (Debian 12, read here)' }
const LOCK = { repo: 'conda/conda', file: 'conda/gateways/disk/lock.py', version: '23.x-24.x', checkedAgainst: 'conda/conda#13124' }
// fcntl.lockf on a file system without locks (NFS): CPython raises OSError from errno, worded by glibc's strerror(ENOLCK).
const LOCK_NFS = { repo: 'conda/conda', file: 'conda/gateways/disk/lock.py (fcntl.lockf)', version: '24.x', checkedAgainst: 'conda/conda#13921' }
const OLD_LOCK = { repo: 'conda/conda', file: 'conda/lock.py', version: '4.0-4.3', checkedAgainst: 'conda/conda#2837' }
const RESOLVO = { repo: 'prefix-dev/resolvo', file: 'src/conflict.rs (the unsolvable report pixi prints)', version: '0.8-0.10 (pixi 0.40-0.65)', checkedAgainst: 'prefix-dev/pixi#3629' }
const PIXI_DISPATCHER = { repo: 'prefix-dev/pixi', file: 'crates/pixi_command_dispatcher (CollectSourceMetadataError, read as the type that forms it)', version: '0.65', checkedAgainst: 'intrinsic-dev/aic#401' }
const LIBMAMBA_FETCH = { repo: 'mamba-org/mamba', file: 'libmamba/src/core/subdirdata.cpp, download.cpp', version: '1.x-2.x', checkedAgainst: 'mamba-org/mamba#2219' }
const LIBMAMBA_LOCK = { repo: 'mamba-org/mamba', file: 'libmamba/src/core/util.cpp (LockFile)', version: '1.x-2.x', checkedAgainst: 'mamba-org/mamba#1442' }
const LIBMAMBA_SOLVER = { repo: 'mamba-org/mamba', file: 'libmamba/src/solver/problems_graph.cpp', version: '1.x-2.x', checkedAgainst: 'mamba-org/mamba#2073' }
// Read here with git: conda 26.7.1 (0f64223fb), conda 4.3.0's conda/lock.py, conda-build 2.0.1, mamba 2.8.1
// (03564bf48), rattler (92dc77433) and pixi (2b25fc76d).
const REPODATA_26 = { repo: 'conda/conda', file: 'conda/gateways/repodata/__init__.py (conda_http_errors)', version: '26.7.1 (0f64223fb)' }
const RESOLVE_26 = { repo: 'conda/conda', file: 'conda/resolve.py, conda/exceptions.py (ResolvePackageNotFound)', version: '26.7.1 (0f64223fb)' }
const LOCK_26 = { repo: 'conda/conda', file: 'conda/gateways/disk/lock.py', version: '26.7.1 (0f64223fb)' }
const LOCK_43 = { repo: 'conda/conda', file: 'conda/lock.py', version: '4.3.0' }
const BUILD_LOCK_2 = { repo: 'conda/conda-build', file: 'conda_build/cli/main_build.py', version: '2.0.1' }
const MAMBA_SOLVER_2 = { repo: 'mamba-org/mamba', file: 'libmamba/src/solver/problems_graph.cpp', version: '2.8.1 (03564bf48)' }
const MAMBA_FETCHER_2 = { repo: 'mamba-org/mamba', file: 'libmamba/src/core/package_fetcher.cpp (validate_size, validate_checksum), core/transaction.cpp', version: '2.8.1 (03564bf48)' }
const MAMBA_LOCK_2 = { repo: 'mamba-org/mamba', file: 'libmamba/src/core/util.cpp (LockFileOwner)', version: '2.8.1 (03564bf48)' }
const RATTLER_CACHE = { repo: 'conda/rattler', file: 'crates/rattler_cache/src/package_cache/cache_lock.rs', version: '92dc77433' }
// pixi's reqwest 0.13 tunnels through a proxy with hyper-util 0.1.20 (src/client/legacy/connect/proxy/tunnel.rs).
const PIXI_TUNNEL = { repo: 'hyperium/hyper-util', file: 'src/client/legacy/connect/proxy/tunnel.rs (TunnelError, under reqwest 0.13 in pixi)', version: '0.1.20-22 (4684c71)' }
const PIXI_INSTALL = { repo: 'prefix-dev/pixi', file: 'crates/pixi_command_dispatcher/src/install_pixi/mod.rs', version: '2b25fc76d' }
// rattler reads each conda-meta record and checks that its size and mtime did not change meanwhile.
const RATTLER_RECORD = { repo: 'conda/rattler', file: 'crates/rattler_conda_types/src/minimal_prefix_record.rs (under pixi_utils/src/prefix.rs)', version: '92dc77433' }
const RATTLER_OFFLINE = { repo: 'conda/rattler', file: 'crates/rattler_networking/src/offline_middleware.rs, crates/rattler_repodata_gateway/src/fetch/mod.rs', version: '92dc77433' }
const PIXI_OFFLINE = { repo: 'prefix-dev/pixi', file: 'crates/pixi_cli/src/offline.rs (OFFLINE_HINT)', version: '2b25fc76d' }
const SESSION_26 = { repo: 'conda/conda', file: 'conda/gateways/connection/session.py (EnforceUnusedAdapter)', version: '26.7.1 (0f64223fb)' }
// libmamba 1.5.9 explains an unsolvable request as a tree (libmamba/src/core/satisfiability_error.cpp): a dependency
// that no channel has "does not exist (perhaps a missing channel)"; the requested spec "(perhaps a typo or a ...)".
const LIBMAMBA_TREE = { repo: 'mamba-org/mamba', file: 'libmamba/src/core/satisfiability_error.cpp (TreeExplainer)', version: '1.5.9 (libmamba-1.5.9)' }
const DOWNLOAD_26 = { repo: 'conda/conda', file: 'conda/gateways/connection/download.py (download_inner)', version: '26.7.1 (0f64223fb)' }
const EXCEPTIONS_26 = { repo: 'conda/conda', file: 'conda/exceptions.py (NoWritablePkgsDirError)', version: '26.7.1 (0f64223fb)' }
const SUBDIR_45 = { repo: 'conda/conda', file: 'conda/core/subdir_data.py', version: '4.5.13' }
// conda imports ssl when it starts; on Windows a missing OpenSSL DLL stops that import (CPython's loader words it).
const DYNLOAD_WIN = { repo: 'python/cpython', file: 'Python/dynload_win.c (_PyImport_FindSharedFuncptrWindows)', version: 'main (003b808ec)' }
// libmamba 1.5.9 (git tag libmamba-1.5.9): fetch.cpp prints `Download error (<curl code>) <curl_easy_strerror>
// [<url>]`, then curl's error buffer on the next line; the words are libcurl 7.88.1's (git tag curl-7_88_1):
// lib/strerror.c, lib/multi.c, lib/vtls/openssl.c, lib/vtls/schannel.c.
const LIBMAMBA_CURL = { repo: 'mamba-org/mamba', file: 'libmamba/src/core/fetch.cpp (DownloadTarget::check_result), with libcurl 7.88.1', version: '1.5.9 (libmamba-1.5.9)' }
// mamba 1.x prints libsolv's problem strings.
const LIBSOLV = { repo: 'openSUSE/libsolv', file: 'src/problems.c (solver_problemruleinfo2str)', version: '0.7.39' }

export const CONDA = [
  ...messages(EXCEPTIONS, [
    ['conda-connection-failed', 'CondaHTTPError: HTTP 000 CONNECTION FAILED for url <{url}>'],
    ['status', 'CondaHTTPError: HTTP {status} {reason} for url <{url}>'],
    ['conda-packages-not-found', 'PackagesNotFoundError: The following packages are not available from current channels:'],
    ['conda-unsatisfiable', 'UnsatisfiableError: The following specifications were found to be incompatible with each other:'],
    ['conda-checksum-mismatch', 'ChecksumMismatchError: Conda detected a mismatch between the expected content and downloaded content'],
    ['any-proxy', 'ProxyError: Conda cannot proceed due to an error in your proxy configuration.'],
    ['any-ssl', 'CondaSSLError: Encountered an SSL error. Most likely a certificate verification issue.'],
    ['any-permission', 'NotWritableError: The current user does not have write permissions to a required path.'],
    ['conda-python-version', 'UnsatisfiableError: The following specifications were found to be incompatible with the existing python installation in your environment:'],
  ]),
  ...messages(REPODATA, [['conda-ssl-module-missing', 'CondaSSLError: OpenSSL appears to be unavailable on this machine. OpenSSL is required to download and install packages.']]),
  ...messages(PATH_ACTIONS, [['conda-checksum-mismatch', "SafetyError: The package for {package} located at {path} appears to be corrupted. The path 'lib/python3.11/site-packages/x.py' has an incorrect size."]]),
  ...messages(BUILD_LOCK, [['conda-lock-busy', "filelock.Timeout: The file lock '{path}/.conda_lock' could not be acquired."]]),
  ...messages(LOCK, [['conda-lock-busy', 'LockError: Failed to acquire lock on {path}']]),
  ...messages(LOCK_NFS, [['any-lock-unsupported', '        fcntl.lockf(\n    OSError: [Errno 37] No locks available']]),
  ...messages(OLD_LOCK, [['conda-lock-busy', 'LOCKERROR: It looks like conda is already doing something.']]),
  ...messages(REPODATA_26, [
    ['any-credentials-rejected', 'The token given for the URL is invalid.\n\nYou will need to adjust your conda configuration to proceed.'],
    ['any-credentials-rejected', 'The credentials you have provided for this URL are invalid.\n\nYou will need to modify your conda configuration to proceed.'],
    ['any-http-auth', 'The token given for the URL has insufficient permissions to access this resource.'],
    ['any-http-auth', 'The remote server has indicated you do not have permission to access this resource.'],
  ]),
  ...messages(RESOLVE_26, [
    ['conda-unsatisfiable', 'Found conflicts! Looking for incompatible packages.\nThis can take several minutes.  Press CTRL-C to abort.'],
    ['conda-packages-not-found', 'ResolvePackageNotFound: \n  - {package}={version}'],
  ]),
  ...messages(LOCK_26, [['conda-lock-busy', 'LockError: Failed to acquire lock.']]),
  ...messages(LOCK_43, [['conda-lock-busy', 'The lock {path} was found. Wait for it to finish before continuing.']]),
  ...messages(SUBDIR_45, [['any-credentials-rejected', 'CondaHTTPError: HTTP 401 UNAUTHORIZED for url <{url}>\n\nThe remote server has indicated you are using invalid credentials for this channel.']]),
  ...messages(DOWNLOAD_26, [
    ['any-connection', 'CondaError: Downloaded bytes did not match Content-Length\n  url: {url}\n  target_path: {path}\n  Content-Length: {n}\n  downloaded bytes: {n}'],
    ['any-proxy', 'CondaDependencyError: Requests has identified that your current working environment is configured\nto use a SOCKS proxy, but pysocks is not installed.  To proceed, remove your\nproxy configuration, run `conda install pysocks`, and then you can re-enable\nyour proxy configuration.'],
  ]),
  ...messages(EXCEPTIONS_26, [['any-permission', 'NoWritablePkgsDirError: No writeable pkgs directories configured.\n  - {path}']]),
  ...messages(DYNLOAD_WIN, [['conda-ssl-module-missing', 'ImportError: DLL load failed with error code 126 while importing _ssl']]),
  ...messages(SESSION_26, [['any-offline-mode', 'OfflineError: EnforceUnusedAdapter called with url {url}\nThis command is using a remote connection in offline mode.']]),
  ...messages(BUILD_LOCK_2, [['conda-lock-busy', 'File lock could on {path}/.conda_lock not be obtained.  You might need to try fewer builds at once.  Otherwise, run conda clean --lock']]),
]

export const PIXI = [
  ...messages(PIXI_INSTALL, [['any-lock-busy', "  × failed to acquire install lock on prefix '{path}'"]]),
  ...messages(RATTLER_RECORD, [['any-lock-busy', "  × failed to collect prefix records from '{path}'\n  ╰─▶ File was modified during parsing"]]),
  ...messages(RATTLER_OFFLINE, [
    ['any-offline-mode', '  ├─▶ error sending request for url ({url})\n  ╰─▶ network access is disabled by offline mode'],
    ['any-offline-mode', '  ╰─▶ no usable repodata cache for {url}'],
  ]),
  ...messages(PIXI_OFFLINE, [['any-offline-mode', '  help: pixi is running in offline mode and only uses locally cached data.']]),
  ...messages(RESOLVO, [['conda-packages-not-found', '  × Cannot solve the request because of: No candidates were found for {package} {range}.']]),
  ...messages(PIXI_TUNNEL, [['any-proxy', '  ├─▶ error sending request for url ({url})\n  ├─▶ client error (Connect)\n  ╰─▶ tunnel error: unsuccessful']]),
  ...messages(PIXI_DISPATCHER, [['pixi-build-backend', "  × failed to extract metadata for package '{package}'"]]),
]

export const MAMBA = [
  ...messages(LIBMAMBA_FETCH, [
    ['any-timeout', 'Download error (28) Timeout was reached [{url}]'],
    ['any-dns', 'Download error (6) Couldn\'t resolve host name [{url}]'],
    ['any-ssl', 'Download error (60) SSL peer certificate or SSH remote key was not OK [{url}]'],
    ['status', 'Transfer finalized, status: {status} [{url}] {n} bytes'],
  ], 'critical libmamba '),
  ...messages(LIBMAMBA_LOCK, [
    ['conda-lock-busy', 'Cannot lock \'{path}\'. Lock file is held by another process (pid {pid}).'],
    ['conda-lock-busy', 'LockFile acquisition failed, aborting.'],
  ], 'error    libmamba '),
  ...messages(LIBMAMBA_CURL, [
    ['any-connection', 'Download error (55) Failed sending data to the peer [{url}]'],
    ['any-dns', 'Download error (28) Timeout was reached [{url}]\nResolving timed out after {n} milliseconds'],
    ['any-timeout', 'Download error (28) Timeout was reached [{url}]\nConnection timed out after {n} milliseconds'],
    ['any-ssl', 'Download error (35) SSL connect error [{url}]\nOpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to {host}:{port} '],
    ['any-ssl', 'Download error (35) SSL connect error [{url}]\nschannel: next InitializeSecurityContext failed: SEC_E_UNTRUSTED_ROOT (0x80090325)'],
  ]),
  ...messages(LIBSOLV, [
    ['conda-packages-not-found', '  - nothing provides {package} {range} needed by {package}-{version}-py39_0'],
    ['conda-python-version', 'nothing provides requested python {python}*'],
    ['conda-python-version', 'nothing provides python >={python} needed by {package}-{version}-pyhd8ed1ab_0'],
  ]),
  ...messages(LIBMAMBA_SOLVER, [
    ['conda-packages-not-found', 'nothing provides requested {package} {range}'],
    ['conda-python-version', '└─ python {python}* is not installable because it conflicts with any installable versions previously reported.'],
  ]),
  ...messages(LIBMAMBA_TREE, [['conda-packages-not-found', 'The following packages are incompatible\n└─ {package}   is uninstallable because there are no viable options\n   ├─ {package} {version} would require\n   │  └─ {package} {range}, which does not exist (perhaps a missing channel);']]),
  ...messages(MAMBA_SOLVER_2, [
    ['conda-packages-not-found', 'error    libmamba Could not solve for environment specs\n    The following package could not be installed\n    └─ {package} =* * does not exist (perhaps a typo or a missing channel).'],
    ['conda-unsatisfiable', 'error    libmamba Could not solve for environment specs\n    The following package could not be installed\n    └─ {package} =* * is not installable because it requires\n       └─ {package} =={version} *, which conflicts with any installable versions previously reported.'],
  ]),
  ...messages(MAMBA_FETCHER_2, [
    ['conda-checksum-mismatch', '{package}-{version}-h1234567_0.conda tarball has incorrect size\ncritical libmamba Found incorrect downloads. Aborting'],
    ['conda-checksum-mismatch', '{package}-{version}-h1234567_0.conda tarball has incorrect sha256\ncritical libmamba Found incorrect downloads. Aborting'],
  ]),
  ...messages(MAMBA_LOCK_2, [['conda-lock-busy', "warning  libmamba Cannot lock '{path}'\nWaiting for other mamba process to finish"]]),
  ...messages(RATTLER_CACHE, [['conda-lock-busy', 'Blocking waiting for global file lock on package cache']]),
]
