/**
 * The relay's vocabulary: the sources behind it, what it counts per host, and what it tells the terminal. See
 * docs/relay.md.
 */

/** The index protocols the relay speaks: PEP 503/691 (pip), the npm registry protocol (npm), GOPROXY (go), cargo's sparse index, conda channels. */
export type RelayProtocolName = 'pypi' | 'npm' | 'goproxy' | 'cargo' | 'conda'

/** One upstream the relay fetches from: the index or a mirror serving the same paths. */
export interface RelaySource {
  /** For accounting and messages: `pypi.org`, `tuna`, `127.0.0.1:4873`. */
  id: string
  /** Where its pages are: the simple index URL (pip) or the registry URL (npm), with a trailing slash. */
  pages: string
  /** The root its file links are relative to: `https://files.pythonhosted.org/` for PyPI, the registry for npm. */
  files: string
  /**
   * An Authorization header for this source, held in memory only (never in a file, never on argv). A source with
   * one is private: the relay then has no other source, so its requests never fail over elsewhere.
   */
  authorization?: string
}

/** Why a source did not give a usable answer. */
export type FailureKind = 'connect' | 'reset' | 'timeout' | 'server-error' | 'rate-limited' | 'not-found' | 'refused' | 'truncated' | 'hash-mismatch' | 'bad-range'

/** What the relay did with one host during the run: the numbers --report and the run log show. */
export interface HostTally {
  /** Requests sent to it (hedges and resumes included). */
  requests: number
  /** Responses of it passed on to the tool. */
  served: number
  /** Body bytes of it passed on to the tool. */
  bytes: number
  /** Requests that left it for another source (a failure, or another source answering first). */
  failovers: number
  /** Bytes it served as the continuation of a file another transfer broke. */
  resumedBytes: number
  /** Requests it was too slow to answer before the hedging delay, so another source was asked too. */
  hedged: number
  failures: Partial<Record<FailureKind, number>>
}

/** Something the person may want to see on a long install, one line each (src/relay/describe.ts renders them). */
export type RelayEvent =
  | { kind: 'failover'; path: string; from: string; to: string; why: FailureKind | 'slow' }
  | { kind: 'resume'; path: string; from: string; to: string; atBytes: number; totalBytes?: number; why: 'broke' | 'stalled' }
  | { kind: 'hash-mismatch'; path: string; sources: string[] }
  | { kind: 'gave-up'; path: string; why: string }
  /** A source answered 429 with a Retry-After the relay waits out (said once per source and run: a wait per page would flood). */
  | { kind: 'waiting'; path: string; source: string; ms: number }

/** The relay's hedging settings; defaults in src/relay/hedge-delay.ts. */
export interface HedgeSettings {
  /** The delay before anything is known of a source: conservative, replaced by what its answers show. */
  initialMs: number
  minMs: number
  maxMs: number
}
