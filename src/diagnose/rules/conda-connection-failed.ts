import { hostFacts, linesMatching } from '../evidence.js'
import { statusOf } from '../http-status.js'
import { CONDA_FAMILY } from '../tool-families.js'
import type { Rule } from '../types.js'

// "HTTP 000 CONNECTION FAILED" means no HTTP answer at all. conda prints the cause below it when it knows one
// (getaddrinfo, Errno 101, a 407 from the proxy, an SSL error): the DNS, proxy, TLS and connection rules come first
// and read it. This rule is what is left: a path to the channel that failed without a word why. libmamba's
// "Multi-download failed. Reason: Transfer finalized, status: 404 [url]" (libmamba/src/core/download.cpp, 1.5.9) did
// get an answer: the status in the line decides, as in every other tool's wording. curl's code 23 (CURLE_WRITE_ERROR,
// "Failed writing received data to disk/application") is no network failure: the bytes arrived and libmamba's own
// write callback refused them (a full disk, a decompression that failed), so it is not claimed here.
export const condaConnectionFailed = {
  id: 'conda-connection-failed',
  category: 'connection',
  tools: CONDA_FAMILY,
  summary: 'conda got no answer from the channel (HTTP 000: the connection failed)',
  match: failure => {
    const evidence = linesMatching(failure, /HTTP 000 CONNECTION FAILED|Multi-download failed|Download error \((?!23\))\d+\)/, 2).filter(line => (statusOf(line) ?? 0) < 400)
    if (!evidence.length) return null
    const facts = hostFacts(evidence)
    return { evidence, facts, summary: facts.host ? `conda got no answer from ${facts.host} (HTTP 000: the connection failed)` : undefined }
  },
} satisfies Rule
