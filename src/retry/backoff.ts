/**
 * Exponential backoff with equal jitter (AWS Architecture Blog, "Exponential Backoff And Jitter"): a wait drawn
 * between half the exponential ceiling and the ceiling. The random half spreads retries from many CI jobs so they do
 * not hit a recovering index in lockstep; the fixed half keeps a minimum wait, which full jitter (0 to the ceiling)
 * would not, so a rate-limited or restarting index always gets some rest.
 */
export function backoffMs(previousTriesOnHost: number, capMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, 1000 * 2 ** Math.max(0, previousTriesOnHost - 1))
  return Math.round(ceiling / 2 + random() * ceiling / 2)
}
