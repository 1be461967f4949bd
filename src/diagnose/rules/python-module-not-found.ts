import { firstCapture, linesMatching } from '../evidence.js'
import { PYTHON_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// A script (or the tool's own launcher: pipx after a Python upgrade, a stale ~/.local/bin/pip3) failed on an
// import. Python 3.6+ says ModuleNotFoundError; Python 2 and 3.5 say "ImportError: No module named x";
// `python -m pip` without pip says "python: No module named pip". Build rules come first: an import failing inside
// setup.py is a build failure.
const MISSING = /ModuleNotFoundError: No module named |ImportError: No module named |: No module named [\w'.]/

export const pythonModuleNotFound = {
  id: 'python-module-not-found',
  category: 'module_not_found',
  tools: PYTHON_FAMILY,
  summary: 'A Python module is missing',
  match: failure => {
    const evidence = linesMatching(failure, MISSING, 2)
    if (!evidence.length) return null
    const name = firstCapture(evidence, /No module named '?([\w.]+)/)
    return { evidence, facts: { package: name }, summary: name ? `The Python module ${name} is missing` : undefined }
  },
} satisfies Rule
