/** How one run of a case ended, and what it left. */
export interface RunOutcome {
  exitCode: number
  ms: number
  /**
   * What the run installed, as its subject reads it (`demo-pkg==2.0`, `left-pad-x@2.0.0`, `… (look-alike)`): which
   * version, which package a name meant. Sorted.
   */
  installed?: readonly string[]
  /** A case of two runs (the tool's cache kept): the package files the second run fetched from the servers again. */
  refetched?: number
  /** Requests for the name of the person's own source that reached the mirror: a name it could shadow. */
  leaked?: number
}

export type Verdict = 'won' | 'equal' | 'lost'

const listed = (installed: readonly string[] | undefined) => installed?.length ? installed.join(', ') : 'nothing'
const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, at) => item === b[at])

/**
 * The contract, for one case: whatever the plain tool completes, resilient completes, with the same packages, in at
 * most the plain tool's time plus `slackMs` (and, on a second run, fetching no more again); whatever the plain tool
 * fails, resilient completes with what the index holds (`expected`) or fails with the tool's own status. Never may a
 * name of the person's own source reach the mirror. `won`: resilient completed what the plain tool failed, or took
 * under three quarters of its time (a second or more).
 */
export function judge(plain: RunOutcome, resilient: RunOutcome, slackMs: number, expected?: readonly string[]): { verdict: Verdict; why: string } {
  const times = `${seconds(resilient.ms)} vs ${seconds(plain.ms)}`
  if ((resilient.leaked ?? 0) > (plain.leaked ?? 0)) return { verdict: 'lost', why: `the private name reached the mirror (${resilient.leaked} request(s))` }
  if (plain.exitCode === 0) {
    if (resilient.exitCode !== 0) return { verdict: 'lost', why: `the plain tool succeeded, resilient exited ${resilient.exitCode} (${times})` }
    if (plain.installed && resilient.installed && !same(plain.installed, resilient.installed)) {
      return { verdict: 'lost', why: `both succeeded, but resilient installed ${listed(resilient.installed)} where the plain tool installed ${listed(plain.installed)}` }
    }
    if ((resilient.refetched ?? 0) > (plain.refetched ?? 0)) {
      return { verdict: 'lost', why: `both succeeded, but on the second run resilient fetched ${resilient.refetched} file(s) again, the plain tool ${plain.refetched ?? 0}` }
    }
    if (resilient.ms > plain.ms + slackMs) return { verdict: 'lost', why: `both succeeded, resilient more than ${seconds(slackMs)} slower (${times})` }
    const faster = resilient.ms < 0.75 * plain.ms && plain.ms - resilient.ms >= 1000
    return { verdict: faster ? 'won' : 'equal', why: `both succeeded (${times})` }
  }
  if (resilient.exitCode === 0) {
    if (expected && resilient.installed && !same(expected, resilient.installed)) {
      return { verdict: 'lost', why: `the plain tool exited ${plain.exitCode}; resilient installed ${listed(resilient.installed)} where the index has ${listed(expected)}` }
    }
    return { verdict: 'won', why: `the plain tool exited ${plain.exitCode}, resilient succeeded (${times})` }
  }
  if (resilient.exitCode === plain.exitCode) return { verdict: 'equal', why: `both exited ${plain.exitCode} (${times})` }
  return { verdict: 'lost', why: `the plain tool exited ${plain.exitCode}, resilient ${resilient.exitCode} (${times})` }
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}
