import { messages } from './types.js'

// pip 23.2.1 as installed (pyenv), and the urllib3 1.26 it vendors: pip logs urllib3's retries as `WARNING:
// Retrying (Retry(total=N, ...)) after connection broken by '<exception repr>': <path>`.
const FACTORY = { repo: 'pypa/pip', file: 'src/pip/_internal/resolution/resolvelib/factory.py', version: '23.2.1' }
const LEGACY = { repo: 'pypa/pip', file: 'src/pip/_internal/resolution/legacy/resolver.py', version: '23.2.1' }
const EXCEPTIONS = { repo: 'pypa/pip', file: 'src/pip/_internal/exceptions.py', version: '23.2.1' }
const INSTALL = { repo: 'pypa/pip', file: 'src/pip/_internal/commands/install.py', version: '23.2.1' }
const SESSION = { repo: 'pypa/pip', file: 'src/pip/_internal/network/session.py', version: '23.2.1' }
const CONSTRUCTORS = { repo: 'pypa/pip', file: 'src/pip/_internal/req/constructors.py', version: '23.2.1' }
const WHEEL = { repo: 'pypa/pip', file: 'src/pip/_internal/operations/build/wheel.py', version: '23.2.1' }
const REQUESTS = { repo: 'psf/requests', file: 'src/requests/models.py (vendored in pip)', version: '2.31.0' }
const GCC = { repo: 'gcc-mirror/gcc', file: 'libcpp/files.cc', version: '12.2 (Debian 12, run here)' }
// pip before 10 printed these; the wording is checked against pastes of pip 1.5-9 (ab77/netflix-proxy#52,
// siyangbing/baiduwenku#1), the files are where those versions formed it.
const OLD_INDEX = { repo: 'pypa/pip', file: 'pip/index.py (PackageFinder.find_requirement)', version: '1.4-6.1', checkedAgainst: 'ab77/netflix-proxy#52' }
const OLD_INDEX_1_5 = { repo: 'pypa/pip', file: 'pip/index.py (PackageFinder.find_requirement)', version: '1.5.6' }
const OLD_INDEX_9 = { repo: 'pypa/pip', file: 'pip/index.py (PackageFinder.find_requirement: an empty version list)', version: '9.0.3' }
const OLD_SUBPROCESS = { repo: 'pypa/pip', file: 'pip/utils/__init__.py (call_subprocess)', version: '6.0-9.0', checkedAgainst: 'siyangbing/baiduwenku#1' }
const MATCH_HOSTNAME = { repo: 'urllib3/urllib3', file: 'src/urllib3/util/ssl_match_hostname.py (vendored in pip)', version: '1.26.16' }
const OPTPARSE = { repo: 'python/cpython', file: 'Lib/optparse.py (pip parses its options with optparse)', version: '3.11.7' }
const IMPORTLIB = { repo: 'python/cpython', file: 'Lib/importlib/_bootstrap.py (_ERR_MSG_PREFIX)', version: '3.11.7 (run here)' }
const URLLIB3 = { repo: 'urllib3/urllib3', file: 'src/urllib3/connectionpool.py, exceptions.py (vendored in pip)', version: '1.26.16' }
// A chunked body that stops short: HTTPResponse._update_chunk_length parses the empty size line (int(b'', 16)) and
// raises InvalidChunkLength, which read_chunked reports as ProtocolError("Connection broken: ...").
const URLLIB3_CHUNKED = { repo: 'urllib3/urllib3', file: 'src/urllib3/response.py (HTTPResponse._update_chunk_length, read_chunked)', version: '1.26.x (read here)' }
// A proxy pip cannot use: requests (vendored) raises InvalidSchema without PySocks for a socks5:// proxy and
// InvalidProxyURL for a proxy URL without a host; both are OSErrors, which install.py words (create_os_error_message).
const REQUESTS_PROXY = { repo: 'pypa/pip', file: 'src/pip/_vendor/requests/adapters.py, src/pip/_internal/commands/install.py', version: '26.2.1-52 (6d3092057)' }

// Older pips, read here with git (pypa/pip tags): what users of pip 9-22 still paste.
const PACKAGING_9 = { repo: 'pypa/pip', file: 'pip/utils/packaging.py (check_requires_python)', version: '9.0.3' }
const SUBPROCESS_20 = { repo: 'pypa/pip', file: 'src/pip/_internal/utils/subprocess.py', version: '20.0' }
const INSTALL_20 = { repo: 'pypa/pip', file: 'src/pip/_internal/commands/install.py (_warn_about_conflicts)', version: '20.0' }
const INSTALL_22 = { repo: 'pypa/pip', file: 'src/pip/_internal/commands/install.py', version: '22.0' }
const EXCEPTIONS_22 = { repo: 'pypa/pip', file: 'src/pip/_internal/exceptions.py (LegacyInstallFailure)', version: '22.0' }
const LEGACY_INSTALL_22 = { repo: 'pypa/pip', file: 'src/pip/_internal/operations/install/legacy.py (the spinner ends in "error")', version: '22.0' }
const SUBPROCESS_9 = { repo: 'pypa/pip', file: 'pip/utils/__init__.py (call_subprocess)', version: '9.0.3' }
const PIPX = { repo: 'pypa/pipx', file: 'src/pipx/util.py (analyze_pip_output)', version: '1.16.7' }
// The texts after `[Errno N]` are glibc's strerror (Debian 12, os.strerror run here); CPython's ssl module names
// SSLZeroReturnError when the server closes the TLS session (Modules/_ssl.c, read with strings(1) in _ssl.so).
const SSL_MODULE = { repo: 'python/cpython', file: 'Modules/_ssl.c (SSLZeroReturnError)', version: '3.11.7 (run here)' }

const RETRYING = "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by"

export const PIP = [
  ...messages(FACTORY, [
    ['pip-no-matching-distribution', 'ERROR: Could not find a version that satisfies the requirement {package}=={version} (from versions: {version}, {version})'],
    // Without a listing, pip's words prove nothing: it says the same after a 404, 401, 429 or 5xx of the page.
    ['pip-nothing-listed', 'ERROR: Could not find a version that satisfies the requirement {package} (from versions: none)\nERROR: No matching distribution found for {package}'],
    ['pip-nothing-listed', 'ERROR: No matching distribution found for {package}'],
    ['pip-resolution-impossible', 'ERROR: Cannot install {package}=={version} and {package}=={version} because these package versions have conflicting dependencies.'],
    ['pip-requires-python', 'ERROR: {package}-{version}-cp312-cp312-win_amd64.whl is not a supported wheel on this platform.'],
  ]),
  ...messages(LEGACY, [
    ['pip-requires-python', "ERROR: Package '{package}' requires a different Python: {python} not in '>={python}'"],
    ['pip-resolution-impossible', "ERROR: Double requirement given: {package}=={version} (already in {package}=={version}, name='{package}')"],
  ]),
  ...messages(EXCEPTIONS, [
    ['pip-build-failure', 'error: subprocess-exited-with-error'],
    ['pip-build-failure', 'error: metadata-generation-failed'],
    ['pip-build-failure', '× python setup.py egg_info did not run successfully.'],
    ['pip-hash-mismatch', 'ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE. If you have updated the package versions, please update the hashes. Otherwise, examine the package contents carefully; someone may have tampered with them.'],
    ['any-externally-managed', 'error: externally-managed-environment'],
  ]),
  ...messages(INSTALL, [
    ['any-permission', "ERROR: Could not install packages due to an OSError: [Errno 13] Permission denied: '{path}'"],
    ['any-disk-full', 'ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device'],
    ['any-disk-full', 'ERROR: Could not install packages due to an OSError: [Errno 122] Disk quota exceeded'],
    ['any-permission', "ERROR: Could not install packages due to an OSError: [Errno 1] Operation not permitted: '{path}'"],
  ]),
  ...messages(SESSION, [['pip-untrusted-host', 'WARNING: The repository located at {host} is not a trusted or secure host and is being ignored.']]),
  ...messages(CONSTRUCTORS, [['pip-invalid-requirement', "ERROR: Invalid requirement: '{package} {package}'"]]),
  ...messages(WHEEL, [['pip-build-failure', 'ERROR: Failed building wheel for {package}']]),
  ...messages(OLD_INDEX, [['pip-nothing-listed', '  Could not find any downloads that satisfy the requirement {package}']]),
  ...messages(OLD_INDEX_1_5, [['pip-nothing-listed', 'No distributions at all found for {package}']]),
  ...messages(OLD_INDEX_9, [['pip-nothing-listed', '  Could not find a version that satisfies the requirement {package} (from versions: )\nNo matching distribution found for {package}']]),
  ...messages(OLD_SUBPROCESS, [['pip-build-failure', '    Complete output from command python setup.py egg_info:']]),
  ...messages(MATCH_HOSTNAME, [['any-ssl', "CertificateError: hostname '{host}' doesn't match either of '*.example.edu', 'example.edu'"]]),
  ...messages(OPTPARSE, [['any-usage-error', 'no such option: --no-such-flag']]),
  ...messages(IMPORTLIB, [['python-module-not-found', "ModuleNotFoundError: No module named '{package}'"]]),
  ...messages(REQUESTS, [
    ['status', 'HTTPError: {status:4xx} Client Error: {reason} for url: {url}'],
    ['any-timeout', 'HTTPError: 408 Client Error: Request Timeout for url: {url}'],
  ]),
  ...messages(GCC, [['pip-build-failure', '  {path}/_speedups.c:29:10: fatal error: Python.h: No such file or directory']]),
  ...messages(PACKAGING_9, [['pip-requires-python', "{package} requires Python '>={python}' but the running Python is {python}"]]),
  ...messages(SUBPROCESS_20, [['pip-build-failure', 'ERROR: Command errored out with exit status 1:']]),
  ...messages(INSTALL_20, [['pip-resolution-impossible', "ERROR: {package} {version} has requirement {package}>={version}, but you'll have {package} {version} which is incompatible."]]),
  ...messages(INSTALL_22, [
    ['pip-build-failure', 'ERROR: Could not build wheels for {package}, which is required to install pyproject.toml-based projects'],
    ['pip-resolution-impossible', "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts."],
  ]),
  ...messages(EXCEPTIONS_22, [['pip-build-failure', 'error: legacy-install-failure']]),
  ...messages(LEGACY_INSTALL_22, [['pip-build-failure', '    Running setup.py install for {package} ... error']]),
  ...messages(SUBPROCESS_9, [['pip-build-failure', 'Command "python setup.py egg_info" failed with error code 1 in /tmp/pip-build-k2j3h4/{package}/']]),
  ...messages(PIPX, [['pip-build-failure', 'pip seemed to fail to build package:\n    {package}']]),
  ...messages(SSL_MODULE, [['any-ssl', `${RETRYING} 'SSLError(SSLZeroReturnError(6, 'TLS/SSL connection has been closed (EOF) (_ssl.c:1006)'))': /simple/{package}/`]]),
  ...messages(URLLIB3, [
    ['any-connection', 'pip._vendor.urllib3.exceptions.IncompleteRead: IncompleteRead({n} bytes read, {n} more expected)'],
    ['any-timeout', `${RETRYING} 'ReadTimeoutError("HTTPSConnectionPool(host='{host}', port={port}): Read timed out. (read timeout={n})")': /simple/{package}/`],
    ['any-timeout', `${RETRYING} 'ConnectTimeoutError(<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f3a2c1b5e50>, 'Connection to {host} timed out. (connect timeout={n})')': /simple/{package}/`],
    ['any-dns', `${RETRYING} 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f3a2c1b5e50>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/{package}/`],
    ['any-connection', `${RETRYING} 'ProtocolError('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))': /simple/{package}/`],
    ['any-connection', `${RETRYING} 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f3a2c1b5e50>: Failed to establish a new connection: [Errno 111] Connection refused')': /simple/{package}/`],
    ['any-connection', `${RETRYING} 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f3a2c1b5e50>: Failed to establish a new connection: [Errno 113] No route to host')': /simple/{package}/`],
    ['any-ssl', `${RETRYING} 'SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1006)'))': /simple/{package}/`],
    ['any-proxy', `${RETRYING} 'ProxyError('Cannot connect to proxy.', OSError('Tunnel connection failed: 407 Proxy Authentication Required'))': /simple/{package}/`],
    ['status', `${RETRYING} 'ResponseError('too many {status:5xx} error responses')': /simple/{package}/`],
  ]),
  ...messages(URLLIB3_CHUNKED, [
    ['any-connection', '  File "{path}/pip/_vendor/urllib3/response.py", line 697, in _update_chunk_length\n    self.chunk_left = int(line, 16)\nValueError: invalid literal for int() with base 16: b\'\''],
    ['any-connection', "pip._vendor.urllib3.exceptions.ProtocolError: (\"Connection broken: InvalidChunkLength(got length b'', 0 bytes read)\", InvalidChunkLength(got length b'', 0 bytes read))"],
  ]),
  ...messages(REQUESTS_PROXY, [
    ['any-proxy', 'ERROR: Could not install packages due to an OSError: Missing dependencies for SOCKS support.'],
    ['any-proxy', 'ERROR: Could not install packages due to an OSError: Please check proxy URL. It is malformed and could be missing the host.\nConsider checking your local proxy configuration with "pip config debug".'],
  ]),
]
