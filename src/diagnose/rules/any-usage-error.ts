import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// The tool rejected its own command line (clap, argparse, optparse, npm, pnpm, yarn): nothing was downloaded.
const USAGE = /unexpected argument '|no such option: |unrecognized arguments: |Unknown command: "|Unknown option: '|Unknown Syntax Error|invalid value '[^'\n]{0,100}' for '--/

export const anyUsageError = {
  id: 'any-usage-error',
  category: 'other',
  tools: 'any',
  summary: 'The tool rejected an option or argument of the command',
  match: failure => {
    const evidence = linesMatching(failure, USAGE, 2)
    return evidence.length ? { evidence } : null
  },
  remedy: { kind: 'give-up', hint: "Remove or correct the option named above (check it against the tool's --help for the installed version; scripts written for another version often pass options it lacks)." },
} satisfies Rule
