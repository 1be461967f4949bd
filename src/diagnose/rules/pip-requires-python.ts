import { firstCapture, linesMatching } from '../evidence.js'
import { PIP_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// pip skips releases whose Requires-Python excludes this interpreter and says so ("Ignored the following versions
// that require a different python version"), or refuses outright ("requires a different Python: 3.8.18 not in
// '>=3.9'"), or finds no wheel for this platform ("x.whl is not a supported wheel on this platform", pip's
// resolution/resolvelib/factory.py). pdm's resolver says the dependencies "don't work on all Python versions" of the
// project's `requires-python` (src/pdm/cli/utils.py). The "No matching distribution" that follows is a consequence,
// not a missing package.
const REQUIRES_PYTHON = /requires? a different [Pp]ython|Requires-Python [<>=!~]|but the running Python is |is not a supported wheel on this platform|don't work on all Python\b|PythonRequirement\(name='python'|\brequires Python [<>=!~^]{1,2} ?\d/

export const pipRequiresPython = {
  id: 'pip-requires-python',
  category: 'python_version',
  tools: PIP_FAMILY,
  summary: 'The package (or the wanted version) does not support this Python version',
  match: failure => {
    const evidence = linesMatching(failure, REQUIRES_PYTHON, 2)
    if (!evidence.length) return null
    const name = firstCapture(evidence, /Package '([^']{1,200})' requires/)
    return { evidence, facts: { package: name }, summary: name ? `${name} does not support this Python version` : undefined }
  },
  remedy: { kind: 'give-up', hint: "Not something a retry or a mirror can change. Install with an interpreter the package supports: pip: `python3.12 -m pip install <package>` (or a venv made from it: `python3.12 -m venv .venv`); pdm: `pdm use 3.12`, or narrow `requires-python` in pyproject.toml as pdm says; pipx: `pipx install --python python3.12 <package>`. Or pin an older release of the package that still supports this Python." },
} satisfies Rule
