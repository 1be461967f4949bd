import { firstCapture, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// poetry found the locked release but no file of it fits this interpreter or platform (no matching wheel tag, no
// sdist): src/poetry/installation/chooser.py. Its resolver's Python-range conflicts are poetry-python-version's.
const NO_CANDIDATES = /Unable to find installation candidates for/

export const poetryNoInstallationCandidates = {
  id: 'poetry-no-installation-candidates',
  category: 'python_version',
  tools: ['poetry'],
  summary: 'No file of the locked release fits this Python version or platform',
  match: failure => {
    const evidence = linesMatching(failure, NO_CANDIDATES, 2)
    if (!evidence.length) return null
    const spec = firstCapture(evidence, /candidates for (\S+ \([^)\n]{1,60}\))/)
    return { evidence, summary: spec ? `No file of ${spec} fits this Python version or platform` : undefined }
  },
} satisfies Rule
