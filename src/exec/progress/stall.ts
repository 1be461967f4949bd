import type { TreeCounters } from './tree-counters.js'

/** config.stall: see src/config/schema.ts and docs/stall-detection.md. */
export interface StallSettings {
  /** The throughput floor of the child tree; 0 turns stall detection off. */
  minBytesPerSecond: number
  windowSeconds: number
}

/** Counters at a moment (`at`, in ms). */
export interface Sample extends TreeCounters {
  at: number
}

// A tree that used a tenth of a core over the window is working (resolving, building, linking), not waiting. pip and
// npm waiting on a trickle use well under 1 % (measured, docs/stall-detection.md).
const BUSY_CPU_SHARE = 0.2

/** The latest sample taken at or before `time`. */
function sampleAt(samples: readonly Sample[], time: number): Sample | undefined {
  for (let i = samples.length - 1; i >= 0; i--) if (samples[i]!.at <= time) return samples[i]
  return undefined
}

/**
 * A stall is a live but starved transfer: over the last window, data kept arriving (some in each third of it), yet
 * less than the floor, while the tree was not busy computing, and, where it is known, a transfer was under way at
 * every sample. Silence alone is not a stall: a build that sleeps, or a download that just finished, receives
 * nothing either; a connection that goes silent is the tool's read timeout's to catch. Nor are short transfers
 * between pauses: a tool retrying a failed download after its own delays (npm: 10 s, then 60 s) receives some bytes
 * in each third of a window too. Returns the bytes received in the window when stalled.
 */
export function findStall(samples: readonly Sample[], settings: StallSettings): { bytes: number } | undefined {
  const last = samples.at(-1)
  const windowMs = settings.windowSeconds * 1000
  if (!last || settings.minBytesPerSecond <= 0) return undefined
  const start = sampleAt(samples, last.at - windowMs)
  if (!start) return undefined
  const bytes = last.bytes - start.bytes
  if (bytes >= settings.minBytesPerSecond * settings.windowSeconds) return undefined
  if (last.cpuSeconds - start.cpuSeconds >= BUSY_CPU_SHARE * settings.windowSeconds) return undefined
  const firstCut = sampleAt(samples, last.at - (windowMs * 2) / 3)!
  const secondCut = sampleAt(samples, last.at - windowMs / 3)!
  const live = firstCut.bytes > start.bytes && secondCut.bytes > firstCut.bytes && last.bytes > secondCut.bytes
  const paused = samples.some(sample => sample.at >= start.at && sample.transferring === false)
  return live && !paused ? { bytes } : undefined
}
