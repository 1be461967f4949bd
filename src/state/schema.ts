import * as z from 'zod/mini'
import { urlWithoutSecrets } from '../redact.js'

/** Recent outcomes kept per mirror; totals are kept as counters. */
export const OUTCOMES_KEPT = 10
/** Networks remembered (the most recently seen win); a laptop sees a handful. */
export const NETWORKS_KEPT = 8
export const FIXES_KEPT = 200
/** Mirrors remembered per network (local test servers on random ports come and go). */
export const MIRRORS_KEPT = 100
export const NOTICES_KEPT = 500

const count = z.int().check(z.nonnegative())

const outcome = z.object({
  at: z.number(),
  ok: z.boolean(),
  /** The diagnosis category of a failure (`timeout`, `server_error`...). */
  category: z.optional(z.string()),
  /** `run`: an attempt of a real command; `probe`: `resilient mirrors test`. */
  via: z.enum(['run', 'probe']),
  latencyMs: z.optional(z.number()),
})

const mirrorHealth = z.object({
  /** The index URL, credentials removed. */
  url: z.string(),
  successes: count,
  failures: count,
  /** Failures since the last success: the circuit breaker opens at breaker.failureThreshold. */
  consecutiveFailures: count,
  lastFailureAt: z.optional(z.number()),
  recent: z.array(outcome),
})

const network = z.object({
  /** What tells this network apart, for people: `proxy proxy.corp:3128, resolver 10.0.0.1`. */
  label: z.string(),
  lastSeen: z.number(),
  mirrors: z.record(z.string(), mirrorHealth),
})

/** "What fixed what": after a failure of `category` on `failingHost`, `remedy` on `url` made the command succeed. */
const learnedFix = z.object({
  tool: z.string(),
  category: z.string(),
  failingHost: z.string(),
  url: z.string(),
  /** The source's id (`tuna`) for messages. */
  sourceId: z.string(),
  remedy: z.string(),
  at: z.number(),
  count: z.int().check(z.positive()),
})

export const stateSchema = z.object({
  version: z.literal(1),
  networks: z.record(z.string(), network),
  fixes: z.record(z.string(), learnedFix),
  /** One-time notices already shown (a project config sending installs to an unknown host), by key → when. */
  notices: z.record(z.string(), z.number()),
})

export type State = z.infer<typeof stateSchema>
export type MirrorHealth = z.infer<typeof mirrorHealth>
export type Outcome = z.infer<typeof outcome>
export type LearnedFix = z.infer<typeof learnedFix>

export function emptyState(): State {
  return { version: 1, networks: {}, fixes: {}, notices: {} }
}

/**
 * Health is keyed by index URL without credentials, query, fragment, token path segments (`/t/<token>/`), trailing
 * slash or default port: one mirror, one entry, and no secret at rest in the state file.
 */
export function healthKey(url: string): string {
  return urlWithoutSecrets(url).replace(/\/+$/, '')
}
