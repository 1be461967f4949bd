import { messages } from './types.js'

// poetry 1.3.2 as installed (Debian 12), its PubGrub solver (mixology) and HTTP repository.
const CHOOSER = { repo: 'python-poetry/poetry', file: 'src/poetry/installation/chooser.py', version: '1.3.2' }
const MIXOLOGY = { repo: 'python-poetry/poetry', file: 'src/poetry/mixology/incompatibility.py, failure.py', version: '1.3.2' }
const HTTP = { repo: 'python-poetry/poetry', file: 'src/poetry/repositories/http_repository.py', version: '1.3.2' }
const INIT = { repo: 'python-poetry/poetry', file: 'src/poetry/console/commands/init.py', version: '1.3.2' }
const CHEF = { repo: 'python-poetry/poetry', file: 'src/poetry/installation/chef.py (ChefBuildError)', version: '1.4-1.8', checkedAgainst: 'python-poetry/poetry#9351' }
const BUILD = { repo: 'pypa/build', file: 'src/build/__init__.py (_handle_backend)', version: '0.10-1.x', checkedAgainst: 'python-poetry/poetry#9351' }
const ENV = { repo: 'python-poetry/poetry', file: 'src/poetry/utils/env.py', version: '1.3.2' }

export const POETRY = [
  ...messages(CHOOSER, [['poetry-no-installation-candidates', 'Unable to find installation candidates for {package} ({version})']]),
  ...messages(MIXOLOGY, [
    ['pip-requires-python', "The current project's Python requirement (>={python},<4.0) is not compatible with some of the required packages Python requirement:"],
    ['pip-requires-python', 'Because no versions of {package} match >{version},<{version}\n and {package} ({version}) requires Python >={python}, {package} is forbidden.'],
    ['poetry-package-not-found', 'Because {package} depends on {package} ({version}) which doesn\'t match any versions, version solving failed.'],
    ['poetry-solver-problem', 'Because {package} depends on both {package} ({version}) and {package} ({version}), version solving failed.'],
  ]),
  ...messages(CHEF, [['poetry-build-failure', '  ChefBuildError']]),
  ...messages(BUILD, [['poetry-build-failure', '  Backend subprocess exited when trying to invoke get_requires_for_build_wheel']]),
  ...messages(HTTP, [['any-http-auth', 'Authorization error accessing {url}']]),
  ...messages(INIT, [['poetry-package-not-found', 'Could not find a matching version of package {package}']]),
  ...messages(ENV, [['poetry-no-installation-candidates', 'The currently activated Python version {python} is not supported by the project (>={python}).']]),
]
