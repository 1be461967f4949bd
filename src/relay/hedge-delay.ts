import type { HedgeSettings } from './types.js'

/**
 * When to ask the next source too, learned from each source's own first-byte latency: after about its 95th
 * percentile ("The Tail at Scale", Dean and Barroso, 2013), so that a healthy source is hedged about one request in
 * twenty at most. Before any answer of a source is known, a conservative start; a request another source answered
 * first counts as "at least this slow" (a censored sample), so a source that keeps losing is not waited for longer
 * than the one that keeps winning needs.
 */
export const DEFAULT_HEDGE: HedgeSettings = { initialMs: 1000, minMs: 50, maxMs: 10_000 }

// Enough answers for a percentile to mean something, few enough to follow a link that changes during a run.
const WINDOW = 32
// How many answers in a row another source beat it before it is hedged on the winner's pace.
const LOSING_STREAK = 2

interface Sample {
  ms: number
  /** No answer yet when another source's came: its latency is at least `ms`. */
  censored: boolean
}

function quantile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

export class LatencyBook {
  private readonly samples = new Map<string, Sample[]>()

  constructor(private readonly settings: HedgeSettings = DEFAULT_HEDGE) {}

  /** A first byte (the response headers) from `source` after `ms`; `censored` when another source answered first. */
  record(source: string, ms: number, censored = false): void {
    const list = this.samples.get(source) ?? []
    list.push({ ms, censored })
    if (list.length > WINDOW) list.shift()
    this.samples.set(source, list)
  }

  /** How long to wait for `source`'s first byte before asking the next source as well. */
  delayFor(source: string): number {
    const { initialMs, minMs, maxMs } = this.settings
    const list = this.samples.get(source)
    if (!list?.length) return initialMs
    const clamp = (ms: number) => Math.round(Math.min(maxMs, Math.max(minMs, ms)))
    // Its own answers: few leave room for the ones not seen yet; many give about the 95th percentile, plus headroom.
    const sorted = list.filter(sample => !sample.censored).map(sample => sample.ms).sort((a, b) => a - b)
    const own = !sorted.length ? initialMs : sorted.length < 4 ? Math.max(2 * sorted.at(-1)!, Math.min(initialMs, 4 * sorted.at(-1)!)) : 1.5 * quantile(sorted, 0.95) + 20
    const streak = list.slice(-LOSING_STREAK)
    if (streak.length < LOSING_STREAK || !streak.every(sample => sample.censored)) return clamp(own)
    // It lost its last answers to others: wait no longer than they usually need.
    const others = [...this.samples.entries()].filter(([id]) => id !== source).flatMap(([, samples]) => samples.filter(s => !s.censored).map(s => s.ms)).sort((a, b) => a - b)
    return clamp(others.length ? Math.min(own, 2 * quantile(others, 0.9) + 20) : own)
  }
}
