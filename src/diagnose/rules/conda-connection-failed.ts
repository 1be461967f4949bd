import { hostFacts, linesMatching } from '../evidence.js'
import { CONDA_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// "HTTP 000 CONNECTION FAILED" means no HTTP answer at all. conda prints the cause below it when it knows one
// (getaddrinfo, Errno 101, a 407 from the proxy, an SSL error): the DNS, proxy, TLS and connection rules come first
// and read it. This rule is what is left: a path to the channel that failed without a word why.
export const condaConnectionFailed = {
  id: 'conda-connection-failed',
  category: 'connection',
  tools: CONDA_FAMILY,
  summary: 'conda got no answer from the channel (HTTP 000: the connection failed)',
  match: failure => {
    const evidence = linesMatching(failure, /HTTP 000 CONNECTION FAILED|CondaHTTPError: HTTP None|Multi-download failed|Download error \(\d+\)/, 2)
    if (!evidence.length) return null
    const facts = hostFacts(evidence)
    return { evidence, facts, summary: facts.host ? `conda got no answer from ${facts.host} (HTTP 000: the connection failed)` : undefined }
  },
} satisfies Rule
