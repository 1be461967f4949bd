import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// poetry 1.4+ builds sdists in an isolated environment and reports ChefBuildError / "Backend subprocess exited".
export const poetryBuildFailure = {
  id: 'poetry-build-failure',
  category: 'build_failure',
  tools: ['poetry'],
  summary: 'Building a package from source failed',
  match: failure => {
    const evidence = linesMatching(failure, /ChefBuildError|Backend subprocess exited|PEP517 build of a dependency failed|Backend '[^'\n]{1,100}' is not available|originates from the build backend/, 3)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
