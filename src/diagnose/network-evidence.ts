import { evidenceLine } from './evidence.js'
import type { NormalizedFailure } from './types.js'

// An error line that says a request, a download or a connection failed, or names the URL it failed on: pip's
// "Could not fetch URL", uv's "Failed to fetch", npm's "request to <url> failed", conda's "for url <...>", a
// "network" word. Only error lines count: an install prints URLs on its way ("Downloading https://...") whatever
// went wrong after.
const ERROR_LINE = /\b(?:error|ERROR|Error|ERR!|ERR_|failed|Failed|FAILED|fatal|Caused by)\b|[×✗]/
const NETWORK = /https?:\/\/|\b(?:network|request|fetch(?:ing)?|download(?:ing)?|connect(?:ion|ing)?|socket|HTTP\/?\d?|registry|tarball|repodata|index)\b/i
// Words that say the failure is local whatever the other error lines name (pixi's "failed to download ... ╰─▶ No such
// file or directory (os error 2)" is its cache failing, not the network). Node's own type checks failing inside a
// request (ERR_INVALID_THIS 'Value of "this" must be of type URLSearchParams', lib/internal/errors.js in Node 20.20.2)
// are a tool too old for its Node, which no other source fixes; so is an old cargo that cannot parse the index's
// version requirements ("failed to parse registry's information for: <crate>", "the given version requirement is invalid").
// libcurl's write error (code 23: "Failed writing received data to disk/application", lib/strerror.c; "Failure writing
// output to destination", lib/sendf.c, curl 7.88.1) says the bytes arrived and the tool could not keep them.
const LOCAL = /\b(?:syntax error|parse error|requirement is invalid|invalid (?:argument|option|value)|not a valid|permission denied|no such file or directory|No module named|command not found|ERR_INVALID_THIS|ERR_INVALID_ARG_TYPE|Failed writing received data to disk\/application|Failure writing output to destination)\b|\(os error 2\)/i
// A Python traceback through urllib3's or requests' own files was reading from the network, even when the paste stops
// before the exception (pip's "ERROR: Exception:" then frames in pip/_vendor/urllib3/response.py).
const HTTP_FRAME = /[\\/](?:urllib3|requests)[\\/][\w\\/.-]{0,200}\.py", line \d+/
const LIMIT = 3

/** The error lines that carry network evidence, at most three, last ones first in importance. */
export function networkEvidence(failure: NormalizedFailure): string[] {
  const errors = failure.lines.filter(line => ERROR_LINE.test(line) || LOCAL.test(line) || HTTP_FRAME.test(line))
  if (errors.some(line => LOCAL.test(line))) return []
  return errors.filter(line => NETWORK.test(line) || HTTP_FRAME.test(line)).slice(-LIMIT).map(evidenceLine)
}
