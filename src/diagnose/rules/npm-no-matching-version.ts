import { firstCapture, linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// npm ETARGET "No matching version found for x@1.2.3" (pnpm ERR_PNPM_NO_MATCHING_VERSION, bun "No version
// matching"): the registry has the package but not that version; a lagging mirror can cause it (jshttp/mime-db#158).
const MISSING = /\bETARGET\b|No matching version found for |ERR_PNPM_NO_MATCHING_VERSION|No version matching |is not in (?:this|the npm) registry/

export const npmNoMatchingVersion = {
  id: 'npm-no-matching-version',
  category: 'package_not_found',
  tools: ['npm', 'pnpm', 'bun'],
  summary: 'The registry has no such version of the package',
  match: failure => {
    const evidence = linesMatching(failure, MISSING, 2)
    if (!evidence.length) return null
    const spec = firstCapture(failure.lines, /No matching version found for (\S+)|No version matching "?([^"\s]+)/)
    const at = spec ? spec.lastIndexOf('@') : -1
    return { evidence, facts: { ...(spec && at > 0 && { package: spec.slice(0, at), version: spec.slice(at + 1) }), absence: 'listing' },
      summary: spec ? `The registry has no version ${spec}` : undefined }
  },
} satisfies Rule
