import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// PEP 668: Debian 12, Ubuntu 23.04+, Homebrew Python and others mark the system interpreter as OS-managed.
export const pipExternallyManaged = {
  id: 'pip-externally-managed',
  category: 'externally_managed',
  tools: ['pip', 'pipx', 'uv', 'python'],
  summary: 'This Python is managed by the operating system (PEP 668)',
  match: failure => {
    const evidence = linesMatching(failure, /externally[- ]managed[- ]environment|This environment is externally managed/i)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
