import { firstCapture, linesMatching } from '../evidence.js'
import { PIP_FAMILY, UV_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// A malformed requirement (a shell command pasted into requirements.txt, `name.egg==info`): pip ("Invalid
// requirement") and uv ("Couldn't parse requirement in `requirements.txt`") never reach the index, so no retry or
// mirror can help.
export const pipInvalidRequirement = {
  id: 'pip-invalid-requirement',
  category: 'other',
  tools: [...new Set([...PIP_FAMILY, ...UV_FAMILY])],
  summary: 'A requirement is malformed',
  match: failure => {
    const evidence = linesMatching(failure, /Invalid requirement: |Couldn't parse requirement/)
    if (!evidence.length) return null
    const line = firstCapture(failure.lines, /\(from line (\d+) of ([^)\s]+)\)/)
    return { evidence, summary: line ? `A requirement is malformed (line ${line} of the requirements file)` : undefined }
  },
  remedy: { kind: 'give-up', hint: 'Fix the requirement shown above: a line of a requirements file holds one requirement such as `name==1.2.3`, never a shell command.' },
} satisfies Rule
