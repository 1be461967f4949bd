import { firstCapture, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// cargo's resolver: two requirements on one crate that no single version meets ("failed to select a version for
// `x` which could resolve this conflict"), or two crates linking the same native library.
export const cargoVersionConflict = {
  id: 'cargo-version-conflict',
  category: 'resolution_conflict',
  tools: ['cargo'],
  summary: 'Two requirements on one crate conflict: no version satisfies both',
  match: failure => {
    const evidence = linesMatching(failure, /which could resolve this conflict|all possible versions conflict with previously selected packages|links to the native library `/, 2)
    if (!evidence.length) return null
    const crate = firstCapture(failure.lines, /failed to select a version for `([^`]{1,100})`/)
    return { evidence, facts: { package: crate }, summary: crate ? `Requirements on the crate ${crate} conflict: no version satisfies them all` : undefined }
  },
} satisfies Rule
