import { linesMatching } from '../evidence.js'
import { CONDA_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// The solver's conflict centres on the Python pin: classic conda lists specs "incompatible with the existing
// python installation" and "Your python: python=3.7"; libmamba's tree says "python 3.9.0 is not installable".
const PYTHON = /incompatible with the existing python installation|^\s*Your python: |^[\s│├└─]*python [\d.*=]{1,20}\**\s+is not installable|nothing provides (?:requested )?python /

export const condaPythonVersion = {
  id: 'conda-python-version',
  category: 'python_version',
  tools: CONDA_FAMILY,
  summary: 'The requested packages need another Python version than the environment has',
  match: failure => {
    const evidence = linesMatching(failure, PYTHON, 2)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
