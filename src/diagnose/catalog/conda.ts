import { messages } from './types.js'

// conda, mamba and micromamba cannot be installed here: each template is checked against a paste in the thread
// named, and cites the file that forms it.
const EXCEPTIONS = { repo: 'conda/conda', file: 'conda/exceptions.py', version: '4.x-24.x', checkedAgainst: 'conda/conda#9948' }
const REPODATA = { repo: 'conda/conda', file: 'conda/gateways/repodata/__init__.py (conda_http_errors)', version: '23.x-24.x', checkedAgainst: 'conda/conda#11795' }
const PATH_ACTIONS = { repo: 'conda/conda', file: 'conda/core/path_actions.py', version: '4.4-24.x', checkedAgainst: 'conda/conda#6859' }
const BUILD_LOCK = { repo: 'tox-dev/filelock', file: 'src/filelock/_error.py (conda-build waits on .conda_lock with it)', version: '3.9.0 (Debian 12, read here)' }
const LOCK = { repo: 'conda/conda', file: 'conda/gateways/disk/lock.py', version: '23.x-24.x', checkedAgainst: 'conda/conda#13124' }
const OLD_LOCK = { repo: 'conda/conda', file: 'conda/lock.py', version: '4.0-4.3', checkedAgainst: 'conda/conda#2837' }
const RESOLVO = { repo: 'prefix-dev/resolvo', file: 'src/conflict.rs (the unsolvable report pixi prints)', version: '0.8-0.10 (pixi 0.40-0.65)', checkedAgainst: 'prefix-dev/pixi#3629' }
const PIXI_DISPATCHER = { repo: 'prefix-dev/pixi', file: 'crates/pixi_command_dispatcher (CollectSourceMetadataError, read as the type that forms it)', version: '0.65', checkedAgainst: 'intrinsic-dev/aic#401' }
const LIBMAMBA_FETCH = { repo: 'mamba-org/mamba', file: 'libmamba/src/core/subdirdata.cpp, download.cpp', version: '1.x-2.x', checkedAgainst: 'mamba-org/mamba#2219' }
const LIBMAMBA_LOCK = { repo: 'mamba-org/mamba', file: 'libmamba/src/core/util.cpp (LockFile)', version: '1.x-2.x', checkedAgainst: 'mamba-org/mamba#1442' }
const LIBMAMBA_SOLVER = { repo: 'mamba-org/mamba', file: 'libmamba/src/solver/problems_graph.cpp', version: '1.x-2.x', checkedAgainst: 'mamba-org/mamba#2073' }

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
  ...messages(OLD_LOCK, [['conda-lock-busy', 'LOCKERROR: It looks like conda is already doing something.']]),
]

export const PIXI = [
  ...messages(RESOLVO, [['conda-packages-not-found', '  × Cannot solve the request because of: No candidates were found for {package} {range}.']]),
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
  ...messages(LIBMAMBA_SOLVER, [
    ['conda-packages-not-found', 'nothing provides requested {package} {range}'],
    ['conda-python-version', '└─ python {python}* is not installable because it conflicts with any installable versions previously reported.'],
  ]),
]
