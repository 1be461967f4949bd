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

/** Pages and headers that a run fetches beside the package's file, at most: a few kB (the bytes a break may cost leave them aside). */
export const PAGE_BYTES = 16_000

/** Whether a case resilient should win with a mirror was won as the matrix's goal says, and why (or why not). */
export interface Aim {
  met: boolean
  why: string
  /** Why the tool cannot win the case by design (Subject.notWon), where it did not. */
  notWon?: string
}

/**
 * The goal for a case resilient should win with a mirror (DifferentialCase.shouldWin): completed where the plain tool
 * failed, or in at most half its time; for a break, with at most `bytesAtMost` times the file's bytes fetched from
 * the side's servers (pages and headers aside). Stricter than `judge`'s won (three quarters of the time).
 */
export function judgeAim(plain: RunOutcome, resilient: RunOutcome & { bytes: number }, target: { bytesAtMost?: number }, fileBytes: number, notWon?: string): Aim {
  const reasons: string[] = []
  let met = resilient.exitCode === 0
  if (plain.exitCode !== 0 && met) reasons.push(`completed where the plain tool exited ${plain.exitCode}`)
  else if (met) {
    met = resilient.ms <= plain.ms / 2
    reasons.push(`${(resilient.ms / plain.ms).toFixed(2)}× the plain tool's time${met ? '' : ', not at most half'}`)
  } else reasons.push(`resilient exited ${resilient.exitCode}`)
  if (target.bytesAtMost !== undefined) {
    const within = resilient.bytes <= target.bytesAtMost * fileBytes + PAGE_BYTES
    met &&= within
    reasons.push(`${(resilient.bytes / fileBytes).toFixed(2)}× the file's bytes fetched${within ? '' : `, more than ${target.bytesAtMost}×`}`)
  }
  return { met, why: reasons.join('; '), ...!met && notWon && { notWon } }
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}
