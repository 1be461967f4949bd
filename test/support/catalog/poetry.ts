import { messages } from './types.js'

// poetry 1.3.2 as installed (Debian 12), its PubGrub solver (mixology) and HTTP repository.
const CHOOSER = { repo: 'python-poetry/poetry', file: 'src/poetry/installation/chooser.py', version: '1.3.2' }
const MIXOLOGY = { repo: 'python-poetry/poetry', file: 'src/poetry/mixology/incompatibility.py, failure.py', version: '1.3.2' }
const HTTP = { repo: 'python-poetry/poetry', file: 'src/poetry/repositories/http_repository.py', version: '1.3.2' }
const WHEEL_INFO = { repo: 'python-poetry/poetry', file: 'src/poetry/repositories/http_repository.py (_get_info_from_wheel), with Python\'s zipfile (BadZipFile)', version: '1.3.2' }
const INIT = { repo: 'python-poetry/poetry', file: 'src/poetry/console/commands/init.py', version: '1.3.2' }
const CHEF = { repo: 'python-poetry/poetry', file: 'src/poetry/installation/chef.py (ChefBuildError)', version: '1.4-1.8', checkedAgainst: 'python-poetry/poetry#9351' }
const BUILD = { repo: 'pypa/build', file: 'src/build/__init__.py (_handle_backend)', version: '0.10-1.x', checkedAgainst: 'python-poetry/poetry#9351' }
const ENV = { repo: 'python-poetry/poetry', file: 'src/poetry/utils/env.py', version: '1.3.2' }
// poetry 2.4.1 (python-poetry/poetry at f46702336), read here with git.
const FAILURE_2 = { repo: 'python-poetry/poetry', file: 'src/poetry/mixology/failure.py', version: '2.4.1 (f46702336)' }
const PYTHON_ERRORS = { repo: 'python-poetry/poetry', file: 'src/poetry/utils/env/python/exceptions.py', version: '2.4.1 (f46702336)' }
const EXECUTOR = { repo: 'python-poetry/poetry', file: 'src/poetry/installation/executor.py (_validate_archive_hash)', version: '2.4.1 (f46702336)' }
const PUZZLE = { repo: 'python-poetry/poetry', file: 'src/poetry/puzzle/exceptions.py (SolverProblemError, the class name cleo prints)', version: '2.4.1 (f46702336)' }
const ISOLATED_BUILD = { repo: 'python-poetry/poetry', file: 'src/poetry/utils/isolated_build.py', version: '2.4.1 (f46702336)' }
const CHOOSER_2 = { repo: 'python-poetry/poetry', file: 'src/poetry/installation/chooser.py (_get_links)', version: '2.4.1 (f46702336)' }
const AUTHENTICATOR = { repo: 'python-poetry/poetry', file: 'src/poetry/utils/authenticator.py', version: '2.4.1 (f46702336)' }
const EXECUTOR_11 = { repo: 'python-poetry/poetry', file: 'poetry/installation/executor.py (_download_archive)', version: '1.1.15' }
// poetry 2 fetches through requests on urllib3 2, whose words it prints when a proxy fails.
const URLLIB3_2 = { repo: 'urllib3/urllib3', file: 'src/urllib3/connection.py (_wrap_proxy_error), exceptions.py (MaxRetryError)', version: '2.7.0' }

export const POETRY = [
  ...messages(CHOOSER, [['poetry-no-installation-candidates', 'Unable to find installation candidates for {package} ({version})']]),
  ...messages(MIXOLOGY, [
    ['poetry-python-version', "The current project's Python requirement (>={python},<4.0) is not compatible with some of the required packages Python requirement:"],
    ['pip-requires-python', 'Because no versions of {package} match >{version},<{version}\n and {package} ({version}) requires Python >={python}, {package} is forbidden.'],
    ['poetry-package-not-found', 'Because {package} depends on {package} ({version}) which doesn\'t match any versions, version solving failed.'],
    ['poetry-solver-problem', 'Because {package} depends on both {package} ({version}) and {package} ({version}), version solving failed.'],
  ]),
  ...messages(CHEF, [['poetry-build-failure', '  ChefBuildError']]),
  ...messages(BUILD, [['poetry-build-failure', '  Backend subprocess exited when trying to invoke get_requires_for_build_wheel']]),
  ...messages(HTTP, [['any-http-auth', 'Authorization error accessing {url}']]),
  ...messages(WHEEL_INFO, [['any-hash-mismatch', 'Resolving dependencies...\n\nFile is not a zip file']]),
  ...messages(INIT, [['poetry-package-not-found', 'Could not find a matching version of package {package}']]),
  ...messages(ENV, [['poetry-python-version', 'The currently activated Python version {python} is not supported by the project (>={python}).']]),
  ...messages(FAILURE_2, [['poetry-python-version', "The current project's supported Python range (>={python},<4.0) is not compatible with some of the required packages Python requirement:\n  - {package} requires Python <{python},>={python}, so it will not be installable for Python >={python},<4.0"]]),
  ...messages(PYTHON_ERRORS, [
    ['poetry-python-version', 'The specified Python version ({python}) is not supported by the project (>={python}).\nPlease choose a compatible version or loosen the python constraint specified in the pyproject.toml file.'],
    ['poetry-python-version', 'Current Python version ({python}) is not allowed by the project (>={python}).\nPlease change python executable via the "env use" command.'],
    ['poetry-python-version', 'Poetry was unable to find a compatible version. If you have one, you can explicitly use it via the "env use" command.'],
  ]),
  ...messages(EXECUTOR, [['any-hash-mismatch', '  Hash for {package} ({version}) from archive {package}-{version}-py3-none-any.whl not found in known hashes (was: sha256:b323423e76ae0f6fb4aace295d5a95d9c49ac735bf0b324b327b7db472619490)']]),
  ...messages(CHOOSER_2, [['any-hash-mismatch', '  PoetryRuntimeError\n\n  Downloaded distributions for {package} ({version}) did not match any known checksums in your lock file.']]),
  ...messages(PUZZLE, [['poetry-solver-problem', '  SolverProblemError\n\n  Because {package} depends on both {package} ({version}) and {package} ({version}), version solving failed.']]),
  ...messages(ISOLATED_BUILD, [['poetry-build-failure', '  PEP517 build of a dependency failed']]),
  ...messages(AUTHENTICATOR, [['any-connection', '  All attempts to connect to {host} failed.']]),
  ...messages(EXECUTOR_11, [['any-hash-mismatch', '  RuntimeError\n\n  Invalid hashes (sha256:b90bed3df379fa79afbd21be8e04a0314336b8ae16768b58f2d34cb1d04cd7d2) for {package} ({version}) using archive {package}-{version}-py3-none-any.whl. Expected one of sha256:6574241a3ec5fdc9334353ab8c479fe75841dbe8f4532a8fc97ce63503330ba1.']]),
  ...messages(URLLIB3_2, [['any-proxy', "  HTTPSConnectionPool(host='{host}', port={port}): Max retries exceeded with url: /simple/{package}/ (Caused by ProxyError('Unable to connect to proxy', OSError('Tunnel connection failed: 407 Proxy Authentication Required')))"]]),
]
