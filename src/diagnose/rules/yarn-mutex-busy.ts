import { linesMatching } from '../evidence.js'
import { YARN_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// `yarn --mutex file|network` makes concurrent installs queue; a dead holder makes them wait forever.
export const yarnMutexBusy = {
  id: 'yarn-mutex-busy',
  category: 'lock_busy',
  tools: YARN_FAMILY,
  summary: 'Another yarn instance holds the mutex',
  match: failure => {
    const evidence = linesMatching(failure, /Waiting for the other yarn instance to finish/, 2)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
