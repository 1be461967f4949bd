import { mayMatch } from './line-pattern.js'
import type { Facts, NormalizedFailure } from './types.js'

const EVIDENCE_CHARS = 300

/** A line as evidence: trimmed, and cut with an ellipsis when long. */
export function evidenceLine(line: string): string {
  const trimmed = line.trim()
  return trimmed.length > EVIDENCE_CHARS ? `${trimmed.slice(0, EVIDENCE_CHARS - 1)}…` : trimmed
}

/** The lines that match `pattern`, at most `limit`: the proof shown to the person. */
export function linesMatching(failure: Pick<NormalizedFailure, 'lines' | 'text' | 'forget'>, rulePattern: RegExp, limit = 3): string[] {
  const found: string[] = []
  const pattern = failure.forget?.(rulePattern) ?? rulePattern
  if (!mayMatch(failure.text, pattern)) return found
  for (const line of failure.lines) {
    if (pattern.test(line)) {
      found.push(evidenceLine(line))
      if (found.length >= limit) break
    }
  }
  return found
}

/** The first capture of `pattern` in the lines (first non-empty group), trimmed of quotes and punctuation. */
export function firstCapture(lines: readonly string[], pattern: RegExp): string | undefined {
  for (const line of lines) {
    const match = pattern.exec(line)
    const value = match?.slice(1).find(group => group !== undefined)
    if (value) return value.replace(/^[`'"<(]+|[`'">),.;:]+$/g, '')
  }
  return undefined
}

const URL_PATTERN = /\bhttps?:\/\/[^\s'"`<>()\]]+/
// The host a failure names, in the spellings of urllib3, Node, curl, Go, Rust and conda.
const HOST_PATTERNS: readonly RegExp[] = [
  /getaddrinfo (?:ENOTFOUND|EAI_AGAIN|ENODATA)(?: |: )([\w.-]+)/,
  /Could not resolve (?:host|proxy): ([\w.-]+)/i,
  /\blookup ([\w.-]{1,253})(?: on [\d.:[\]]{1,60})?: /,
  /host='([^']+)'/,
  /Connection to ([\w.-]+) timed out/,
  /\bconnect E[A-Z]+ ([\d.]+:\d+|[\w.-]+:\d+)/,
  /\bHost ([\w.-]+):\d+ was resolved/,
]

function safeUrl(raw: string): { url: string; host: string } | undefined {
  try {
    const parsed = new URL(raw.replace(/[.,;:>]+$/, ''))
    parsed.username = ''
    parsed.password = ''
    // Presigned query strings are long and secret-like; the path is enough to act on.
    parsed.search = ''
    return { url: parsed.toString(), host: parsed.hostname }
  } catch {
    return undefined
  }
}

/**
 * The host a failure names (`getaddrinfo ENOTFOUND proxy.corp`) and the URL it was fetching. A named host comes
 * before the URL's own: behind a proxy the URL is the index but the failing host is the proxy.
 */
export function hostFacts(lines: readonly string[]): Facts {
  for (const line of lines) {
    const named = HOST_PATTERNS.map(pattern => pattern.exec(line)?.[1]).find(Boolean)
    const urlText = URL_PATTERN.exec(line)?.[0]
    const url = urlText ? safeUrl(urlText) : undefined
    if (named) return { host: named.replace(/:\d+$/, ''), url: url?.url }
    if (url) return url
  }
  return {}
}

/** `Retry-After` seconds when the output shows the header. */
export function retryAfterSeconds(text: string): number | undefined {
  const match = /retry-after["']?\s{0,3}[:=]\s{0,3}["']?(\d{1,6})/i.exec(text)
  return match ? Number(match[1]) : undefined
}
