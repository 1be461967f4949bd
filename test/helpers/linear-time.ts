import { expect } from 'vitest'

/**
 * Milliseconds per run, repeating fast runs until they fill 15 ms, so that one preemption of the worker on a busy
 * machine (a few ms) is a small part of the window: with 5 ms, a 0.7 ms baseline read one scheduler slice as a slow
 * algorithm about once per loaded unit run. Doubling, so that a window overshoots by at most as much again.
 */
function timePerRun(run: () => void): number {
  for (let runs = 1; ; runs *= 2) {
    const started = performance.now()
    for (let i = 0; i < runs; i++) run()
    const elapsed = performance.now() - started
    if (elapsed >= 15) return elapsed / runs
  }
}

/**
 * Expects `run` to cost time linear in the input it processes: `big` is `factor` times the work of `small`, and the
 * ratio of their times must stay under `limit`, 3 × factor unless given (a quadratic cost gives factor²). A ratio, not a wall-clock bound:
 * a busy machine slows both sides alike. Each side is its best of five runs, so that a passing load spike (or a
 * garbage collection) is not read as a slow algorithm.
 */
export function expectLinearTime(run: (input: string) => void, inputs: { small: string; big: string; factor: number; limit?: number }): void {
  // Interleaved, so that a stretch of load slows both sides.
  let small = Number.POSITIVE_INFINITY
  let big = Number.POSITIVE_INFINITY
  for (let i = 0; i < 5; i++) {
    small = Math.min(small, timePerRun(() => run(inputs.small)))
    big = Math.min(big, timePerRun(() => run(inputs.big)))
  }
  expect(big / small, `${big.toFixed(1)} ms against ${small.toFixed(1)} ms for ${inputs.factor}× the work`).toBeLessThan(inputs.limit ?? 3 * inputs.factor)
}
