import { linesMatching } from '../evidence.js'
import { UV_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// uv's resolver names the interpreter in its derivation: "the current Python version (3.11.1) does not satisfy
// Python>=3.13", or the project's range: "the requested Python version (>=3.8) does not satisfy Python>=3.10".
const PYTHON = /(?:current|requested) Python version \([^)\n]{1,60}\) does not satisfy|Python>=?[\d.]{1,10} (?:and|is not satisfied)|requires-python[^\n]{0,60}(?:not compatible|incompatible|does not satisfy)|has no wheels with a matching (?:Python|platform)(?: ABI| implementation| version)? tag|No interpreter found for Python|incompatible with the project's Python requirement/

export const uvPythonVersion = {
  id: 'uv-python-version',
  category: 'python_version',
  tools: UV_FAMILY,
  summary: 'A package needs another Python version than this project or interpreter allows',
  match: failure => {
    const evidence = linesMatching(failure, PYTHON, 2)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
