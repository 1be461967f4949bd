import { firstCapture, linesMatching } from '../evidence.js'
import { PIP_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// pip refuses a plain-HTTP index that is not a --trusted-host and never contacts it; the "No matching
// distribution" that follows says nothing about the package. Like a certificate failure, it needs the person.
export const pipUntrustedHost = {
  id: 'pip-untrusted-host',
  category: 'ssl',
  tools: PIP_FAMILY,
  summary: 'pip ignored a plain-HTTP index that is not a trusted host',
  match: failure => {
    const evidence = linesMatching(failure, /is not a trusted or secure host and is being ignored/, 1)
    if (!evidence.length) return null
    const host = firstCapture(evidence, /repository located at (\S+) is not a trusted/)
    return { evidence, facts: { host }, summary: host ? `pip ignored the plain-HTTP index ${host} (not a trusted host)` : undefined }
  },
  remedy: { kind: 'give-up', hint: 'Use the index over HTTPS, or, if you trust the network path, allow it for this run: pip install --trusted-host <host> ... (PIP_TRUSTED_HOST for CI).' },
} satisfies Rule
