import { firstCapture, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// A crate's build script (often a -sys crate looking for a C library) or its compilation failed.
export const cargoBuildFailure = {
  id: 'cargo-build-failure',
  category: 'build_failure',
  tools: ['cargo'],
  summary: 'Building a crate failed (a build script or the compiler)',
  match: failure => {
    const evidence = linesMatching(failure, /failed to run custom build command for `|could not compile `|linker `[^`\n]{1,100}` not found|process didn't exit successfully: `[^`\n]{1,500}build-script-build`/, 2)
    if (!evidence.length) return null
    const crate = firstCapture(evidence, /build command for `([^`\s]{1,100})|could not compile `([^`]{1,100})`/)
    return { evidence: [...evidence, ...linesMatching(failure, /^\s*(?:error|Error):? (?!failed to run|could not compile)/, 1)].slice(0, 3),
      facts: { package: crate }, summary: crate ? `Building the crate ${crate} failed` : undefined }
  },
} satisfies Rule
