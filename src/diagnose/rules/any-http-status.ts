import type { Facts, NormalizedFailure } from '../types.js'
import { hostFacts, retryAfterSeconds } from '../evidence.js'

// Status lines in the spellings of pip/requests ("503 Server Error", "HTTP error 503"), npm ("E503", "503 Service
// Unavailable - GET"), conda ("HTTP 503"), uv/cargo ("status code 503", "(503 Service Unavailable)"), yarn ("Request
// failed \"503\"").
const STATUS = /\b(?:HTTP(?: error| status)?|status(?: code)?|error|E|Request failed|returned|response|got|code)[ :"=]*(\d{3})\b|\b(\d{3}) (?:Client|Server) Error|\((\d{3}) [A-Z][a-z]/i

export interface StatusHit {
  status: number
  line: string
}

/** Every HTTP status in the output within [low, high], with its line. */
export function findStatuses(failure: NormalizedFailure, low: number, high: number): StatusHit[] {
  const hits: StatusHit[] = []
  for (const line of failure.lines) {
    const match = STATUS.exec(line)
    const status = Number(match?.[1] ?? match?.[2] ?? match?.[3])
    if (status >= low && status <= high) hits.push({ status, line: line.trim().slice(0, 300) })
    if (hits.length >= 5) break
  }
  return hits
}

export function statusFacts(failure: NormalizedFailure, hits: StatusHit[]): Facts {
  return { ...hostFacts(hits.map(hit => hit.line)), status: hits[0]?.status, retryAfterSeconds: retryAfterSeconds(failure.text) }
}
