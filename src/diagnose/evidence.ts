import type { Facts, NormalizedFailure } from './types.js'

/** The lines that match `pattern`, at most `limit`, trimmed: the proof shown to the person. */
export function linesMatching(failure: NormalizedFailure, pattern: RegExp, limit = 3): string[] {
  const found: string[] = []
  for (const line of failure.lines) {
    if (pattern.test(line)) {
      found.push(line.trim().slice(0, 300))
      if (found.length >= limit) break
    }
  }
  return found
}

const URL_PATTERN = /\bhttps?:\/\/[^\s'"<>()\]]+/
const HOST_PATTERN = /host='([^']+)'|\bhost[ =:]+"?([a-z0-9.-]+\.[a-z]{2,}|\d+\.\d+\.\d+\.\d+)/i

/** The first URL and its host in the given lines; credentials never survive (`user:pass@` is dropped). */
export function hostFacts(lines: string[]): Facts {
  for (const line of lines) {
    const url = URL_PATTERN.exec(line)?.[0]?.replace(/[.,;:>]+$/, '')
    if (url) {
      try {
        const parsed = new URL(url)
        parsed.username = ''
        parsed.password = ''
        return { url: parsed.toString(), host: parsed.hostname }
      } catch {
        // not a URL after all: look further
      }
    }
    const host = HOST_PATTERN.exec(line)
    if (host) return { host: host[1] ?? host[2] }
  }
  return {}
}

/** `Retry-After` seconds when the output shows the header. */
export function retryAfterSeconds(text: string): number | undefined {
  const match = /retry-after["']?\s*[:=]\s*["']?(\d{1,6})/i.exec(text)
  return match ? Number(match[1]) : undefined
}
