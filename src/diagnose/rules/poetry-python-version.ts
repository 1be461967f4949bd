import { firstCapture, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// poetry's solver checks every dependency against the project's whole Python range, not the running interpreter
// (src/poetry/mixology/failure.py): "The current project's supported Python range (>=3.11,<4.0) is not compatible
// with some of the required packages Python requirement: - x requires Python <3.13, so it will not be installable for
// Python >=3.13,<4.0" (before 1.7: "The current project's Python requirement ..." and "will not be satisfied"); its
// environment manager refuses an interpreter outside that range (src/poetry/utils/env/python/exceptions.py).
const PYTHON_RANGE = /(?:supported Python range|Python requirement) \([^)\n]{1,80}\) is not compatible with some of the required packages|requires Python [^\n]{1,80}, so it will not be (?:satisfied|installable) for Python|(?:current|specified|currently activated) Python version \(?[\d.]{1,20}\)? is not supported by the project|Current Python version \([\d.]{1,20}\) is not allowed by the project|Poetry was unable to find a compatible version/

export const poetryPythonVersion = {
  id: 'poetry-python-version',
  category: 'python_version',
  tools: ['poetry'],
  summary: "A dependency does not support every Python version the project's range allows, or this interpreter is outside it",
  match: failure => {
    const evidence = linesMatching(failure, PYTHON_RANGE, 2)
    if (!evidence.length) return null
    const name = firstCapture(failure.lines, /^\s*-\s+(\S+) requires Python /)
    return { evidence, facts: { package: name }, summary: name ? `${name} does not support every Python version the project's range allows` : undefined }
  },
  remedy: { kind: 'give-up', hint: "Not something a retry or a mirror can change. Give the project an interpreter it supports: `poetry env use python3.12` (a name or a path); if a dependency supports fewer Python versions than the project's `python` range, narrow that range in pyproject.toml (or restrict the dependency with a `python` marker), as poetry's hint says, then run `poetry lock` again." },
} satisfies Rule
