import { messages } from './types.js'

// pdm 2.2.1 as installed (Debian 12), and pdm 2.28.2 (pdm-project/pdm at a7e9d001) read here with git.
const REPOSITORIES = { repo: 'pdm-project/pdm', file: 'src/pdm/models/repositories.py', version: '2.2.1' }
const CLI_UTILS = { repo: 'pdm-project/pdm', file: 'src/pdm/cli/utils.py (format_resolution_impossible)', version: '2.28.2 (a7e9d001)' }
const BUILD_ERROR = { repo: 'pdm-project/pdm', file: 'src/pdm/builders/base.py (build_error), src/pdm/core.py (`[<exception class>]: <message>`)', version: '2.28.2 (a7e9d001)' }
const AUTH = { repo: 'pdm-project/pdm', file: 'src/pdm/models/auth.py (PdmBasicAuth._prompt_for_password)', version: '2.2.1' }
const ARGPARSE = { repo: 'python/cpython', file: 'Lib/argparse.py (pdm parses its options with argparse)', version: '3.11.7 (run here)' }

export const PDM = [
  ...messages(REPOSITORIES, [
    // pdm says it after a 404 and a 429 alike (pdm/captured-other-candidates-*.txt): no proof.
    ['pip-nothing-listed', '[CandidateNotFound]: Unable to find candidates for {package}. There may exist some issues with the package name or network condition.'],
    ['pdm-no-matching-candidates', 'Could not find any matching candidates.'],
  ]),
  ...messages(AUTH, [['any-http-auth', '[PdmException]: The credentials for {host}:{port} are not provided. Please rerun the command with `-v` option.']]),
  ...messages(BUILD_ERROR, [['pip-build-failure', '[BuildError]: Build backend raised error: Showing the last 10 lines of the build output:']]),
  ...messages(ARGPARSE, [['any-usage-error', 'usage: pdm [-h] [-V] [-c CONFIG] [-v | -q] [--no-cache] [-I] [--pep582 [SHELL]] [-n] ...\npdm: error: unrecognized arguments: --no-such-flag']]),
  ...messages(CLI_UTILS, [["pip-requires-python", "Unable to find a resolution because the following dependencies don't work on all Python versions in the range of the project's `requires-python`: >={python}.\n  python>={python} (from <Candidate {package} {version} from https://pypi.org/simple/{package}/>)"]]),
]
