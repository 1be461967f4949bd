/** How one run of a case ended. */
export interface RunOutcome {
  exitCode: number
  ms: number
}

export type Verdict = 'won' | 'equal' | 'lost'

/**
 * The contract, for one case: whatever the plain tool completes, resilient completes, in at most the plain tool's
 * time plus `slackMs`; whatever the plain tool fails, resilient completes or fails with the tool's own status.
 * `won`: resilient completed what the plain tool failed, or took under three quarters of its time (a second or more).
 */
export function judge(plain: RunOutcome, resilient: RunOutcome, slackMs: number): { verdict: Verdict; why: string } {
  const times = `${seconds(resilient.ms)} vs ${seconds(plain.ms)}`
  if (plain.exitCode === 0) {
    if (resilient.exitCode !== 0) return { verdict: 'lost', why: `the plain tool succeeded, resilient exited ${resilient.exitCode}` }
    if (resilient.ms > plain.ms + slackMs) return { verdict: 'lost', why: `both succeeded, resilient more than ${seconds(slackMs)} slower (${times})` }
    const faster = resilient.ms < 0.75 * plain.ms && plain.ms - resilient.ms >= 1000
    return { verdict: faster ? 'won' : 'equal', why: `both succeeded (${times})` }
  }
  if (resilient.exitCode === 0) return { verdict: 'won', why: `the plain tool exited ${plain.exitCode}, resilient succeeded (${times})` }
  if (resilient.exitCode === plain.exitCode) return { verdict: 'equal', why: `both exited ${plain.exitCode} (${times})` }
  return { verdict: 'lost', why: `the plain tool exited ${plain.exitCode}, resilient ${resilient.exitCode}` }
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}
