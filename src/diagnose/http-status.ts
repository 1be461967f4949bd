import { evidenceLine, linesMatching } from './evidence.js'
import { mayMatch } from './line-pattern.js'
import type { NormalizedFailure } from './types.js'

// HTTP status lines in the spellings of requests/pip ("403 Client Error", "HTTP error 503"), urllib3's debug log
// (`"GET /simple/x/ HTTP/1.1" 401 91`), npm ("E503", "503 Service Unavailable - GET"), conda ("HTTP 429 ..."),
// uv/pixi/cargo ("(503 Service Unavailable)", "got 503"), bun ("GET <url> - 503"), pnpm ("ERR_PNPM_FETCH_404"), yarn ("status code 502"),
// curl ("returned error: 403"), yarn classic ("Request <url> returned a 403"). Case-sensitive on purpose: `E401` is a status, `e401` is not.
// An OS error is never a status: Rust's io::Error ends with `(os error 524)`, and glibc's strerror names a code it has
// no text for `Unknown error 524` (uv: "failed to lock `~/.cache/uv/.lock`: Unknown error 524 (os error 524)").
const STATUS = /\b(?:HTTP(?:\/[\d.]{1,3}"?)?(?: error| status(?: code)?)?|[Ss]tatus(?: code)?|(?<!\bos |Unknown )[Ee]rror|got|returned error:?|returned an?|Response [Cc]ode:?|ERR_PNPM_FETCH_|E)[ :"=(]{0,3}([1-5]\d\d)\b|\b([1-5]\d\d) (?:Client|Server) Error|\(([1-5]\d\d) [A-Z][A-Za-z]|\b([1-5]\d\d) (?:Forbidden|Unauthorized|Not Found|Too Many Requests|Service Unavailable|Bad Gateway|Gateway Time-?out|Internal Server Error|Not Allowed|Request Timeout|Gone)\b|\b(?:Not Found|Forbidden|Unauthorized) - ([1-5]\d\d)\b|\b(?:GET|PUT) https?:\/\/\S{1,500} - ([1-5]\d\d)\b/

export interface StatusHit {
  status: number
  line: string
}

/** The HTTP status a line reports, if any. */
export function statusOf(line: string): number | undefined {
  const match = STATUS.exec(line)
  const code = match?.slice(1).find(group => group !== undefined)
  return code ? Number(code) : undefined
}

/** Lines reporting an HTTP status among `statuses`, at most `limit`. */
export function findStatuses(failure: Pick<NormalizedFailure, 'lines' | 'text'>, statuses: readonly number[], limit = 3): StatusHit[] {
  const hits: StatusHit[] = []
  if (!mayMatch(failure.text, STATUS)) return hits
  for (const line of failure.lines) {
    const status = statusOf(line)
    if (status !== undefined && statuses.includes(status)) {
      hits.push({ status, line: evidenceLine(line) })
      if (hits.length >= limit) break
    }
  }
  return hits
}

/** Status lines first, then lines with the given words: the evidence of an HTTP failure. */
export function statusEvidence(failure: NormalizedFailure, statuses: readonly number[], words: RegExp): { hits: StatusHit[]; evidence: string[] } {
  const hits = findStatuses(failure, statuses)
  const extra = hits.length >= 2 ? [] : linesMatching(failure, words, 2).filter(line => !hits.some(hit => hit.line === line))
  return { hits, evidence: [...hits.map(hit => hit.line), ...extra].slice(0, 3) }
}

export const SERVER_ERRORS = Array.from({ length: 100 }, (_, index) => 500 + index)
