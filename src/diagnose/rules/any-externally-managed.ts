import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// PEP 668: Debian 12, Ubuntu 23.04+, Homebrew Python and conda envs with conda-managed-env mark the interpreter
// as managed by another installer. pip says "externally-managed-environment"; uv says "is externally managed".
export const anyExternallyManaged = {
  id: 'any-externally-managed',
  category: 'externally_managed',
  tools: 'any',
  summary: 'This Python is managed by the operating system or conda (PEP 668)',
  match: failure => {
    const evidence = linesMatching(failure, /externally[- ]managed[- ]environment|(?:environment|interpreter at \S{1,300}) (?:is|has been marked as) externally managed/i, 2)
    return evidence.length ? { evidence } : null
  },
} satisfies Rule
