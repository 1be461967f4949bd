/**
 * Exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter"): spreads retries
 * from many CI jobs so they do not hit a recovering index in lockstep.
 */
export function backoffMs(previousTriesOnHost: number, capMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, 1000 * 2 ** Math.max(0, previousTriesOnHost - 1))
  return Math.round(ceiling / 2 + random() * ceiling / 2)
}
