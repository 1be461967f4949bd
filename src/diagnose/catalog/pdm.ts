import { messages } from './types.js'

// pdm 2.2.1 as installed (Debian 12).
const REPOSITORIES = { repo: 'pdm-project/pdm', file: 'src/pdm/models/repositories.py', version: '2.2.1' }

export const PDM = messages(REPOSITORIES, [
  ['pdm-no-matching-candidates', 'Unable to find candidates for {package}. There may exist some issues with the package name or network condition.'],
  ['pdm-no-matching-candidates', 'Could not find any matching candidates.'],
])
