import { firstCapture, linesMatching } from '../evidence.js'
import { PIP_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// pip found no version at all ("(from versions: none)", pip 9's "(from versions: )", pip 1-6's "No distributions at
// all found for"), or pdm found no candidate ("Unable to find candidates for x. There may exist some issues with the
// package name or network condition.", pdm/models/repositories.py). Neither proves the package missing: each tool
// says the same after a 404, a 401, a 429 or a 503 of the page (captured: pip/captured-other-nothing-listed-*.txt,
// pdm/captured-other-candidates-*.txt), and pip after a page whose files all need another Python or platform. So
// the label is `other`, the tool's lines the evidence, and one try on another source; the retry loop asks the index
// itself (src/retry/probe.ts): its 404 proves the package missing, its 5xx, 429 or 401 names the true cause.
const NOTHING = /\(from versions: ?(?:none)?\)|No matching distribution found for |No distributions at all found for |Could not find any downloads that satisfy the requirement |Unable to find candidates for /
const NAME = /the requirement (\S+?),? \(from versions|No matching distribution found for (\S+)|No distributions at all found for (\S+)|satisfy the requirement (\S+)|Unable to find candidates for (\S+?)\. /

export const pipNothingListed = {
  id: 'pip-nothing-listed',
  category: 'other',
  tools: PIP_FAMILY,
  summary: 'No version of the package was found, and the output does not say why (a wrong name, a failing or refusing index, or no file for this Python or platform)',
  match: failure => {
    const evidence = linesMatching(failure, NOTHING)
    // A listing of other versions is the proof pip-no-matching-distribution reads.
    if (!evidence.length || /\(from versions: (?!none\))[^)\s]/.test(failure.text)) return null
    const spec = firstCapture(failure.lines, NAME)?.replace(/[,;]$/, '') ?? ''
    const name = /^[A-Za-z0-9][A-Za-z0-9._-]*/.exec(spec)?.[0]
    // pip names every index it read, its own first: asked too when the retry loop asks the index.
    const indexes = firstCapture(failure.lines, /^Looking in indexes: (.+)$/)?.split(/,\s*/) ?? []
    const others = indexes.slice(1)
    return {
      evidence,
      facts: { package: name, version: /==\s*([^\s,;]+)/.exec(spec)?.[1], ...(others.length && { otherIndexes: others }) },
      summary: name ? `No version of ${spec} was found, and the output does not say why: a wrong name, an index that failed or refused (pip shows its answers with -vv), or no file of it for this Python or platform` : undefined,
      // A retry on a mirror of the main index keeps the other indexes in the command, and would ask the mirror for
      // their names too: not on a guess. The retry loop still asks each index (src/retry/probe.ts).
      ...(others.length && { remedy: { kind: 'give-up' as const, hint: `pip also read ${others.join(', ')}: no mirror of the main index is asked for a name that may be theirs. Run the command again with pip -vv to see what each index answered, and check the name and version.` } }),
    }
  },
  // Not a known cause, yet the network was involved: one try on another source, as for any unrecognised network failure.
  remedy: { kind: 'switch-mirror', once: true },
} satisfies Rule
