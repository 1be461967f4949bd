import type { Diagnosis } from '../diagnose/types.js'
import type { ProgressSummary } from '../exec/progress/progress-monitor.js'
import type { Invocation } from '../tools/parse-invocation.js'
import type { LockfileRewrite } from '../tools/lockfile/lockfile-types.js'
import type { CommandLine, IndexChoice } from '../tools/types.js'

/**
 * The shared vocabulary of every layer: what a run will try (RunPlan), where each attempt goes (Source, Host), and
 * what happened (AttemptRecord, RunResult). state/, config/, retry/ and cli/ import these; this module imports
 * nothing but types. See docs/plan.md.
 */

/** Where one attempt sends the install. */
export interface Source {
  /** `primary` for the index as the command names it, a catalog id (`tuna`), `upstream`, or a config URL's host. */
  id: string
  /** The index URL to apply; undefined leaves the command's own index choice (or the tool default) untouched. */
  url: string | undefined
  /** The index this source really talks to (the user's own URL when `url` is undefined), for probes and health. */
  indexUrl?: string
  /** `upstream` and `mirror` may be replaced; `private` and `local` never are. */
  kind: 'upstream' | 'mirror' | 'private' | 'local'
  /** What the person sees: `pypi.org`, `mirror tuna`, `your index pypi.corp.example`. */
  label: string
}

/** A server an attempt will contact, and the record its outcomes are booked under. */
export interface Host {
  /** `host` or `host:port`, as in a URL: `pypi.org`, `127.0.0.1:4873`. */
  host: string
  /** The health key (src/url.ts indexKey) an outcome on this host is booked under. */
  key: string
  /**
   * `index`: the index the attempt uses; `file-host`: where that index sends downloads (booked under the index);
   * `lockfile`: a registry the project's lockfile pins, which the attempt still downloads from.
   */
  role: 'index' | 'file-host' | 'lockfile'
}

/** One attempt as planned: everything it runs, where, and every host it will contact. */
export interface PlannedAttempt {
  source: Source
  command: CommandLine
  cwd: string
  hosts: Host[]
  lockfileRewrite?: LockfileRewrite
  /** Why it has its place in the order: `your index (--index-url)`, `--mirror`, `failing from this network: last`. */
  reason: string
  /** Named with --mirror for this run: first, in the order given, whatever the state says. */
  requested?: boolean
  /** Why pinned registries were not redirected to this attempt's index: they are still contacted (`hosts`). */
  declined?: string
  /** Goes through resilient's local relay, with RunPlan.relay's sources behind it (docs/relay.md). */
  via?: 'relay'
}

/** An index or mirror behind the relay, in the plan's order. */
export interface RelayPlanSource {
  /** For messages and the report: `pypi.org`, `tuna`, `127.0.0.1:4873`. */
  id: string
  /** The health key its outcomes are booked under (src/url.ts indexKey). */
  key: string
  /** Its index URL (credentials included when the config gives them: the relay keeps them in memory). */
  indexUrl: string
  /** The root its file links are relative to (PyPI's files.pythonhosted.org; a registry's own URL). */
  files: string
}

/** The relay of a run: the protocol it speaks, the sources behind it, where it listens (https with `certificate`, for go: its key stays in memory). */
export interface RelayPlan {
  protocol: import('../relay/types.js').RelayProtocolName
  sources: RelayPlanSource[]
  /** The index the person's own settings use: npm's tarball URLs stay on it (what the lockfile records). */
  index: string
  /** The loopback address and port it is planned on (the same across runs, for the tools' caches); another port when that one is busy. */
  host: string
  port: number
  /** This run's secret, which every request to the relay must carry (held in memory; the tool reads it from a 0600 file). */
  secret: string
  /** The CA bundle the tool verifies with when it names one, and folders of more (go's SSL_CERT_DIR): the relay's too. */
  ca?: string; caDirs?: string[]
  /** The attempt the relay's takes the place of: run instead should the relay not start. */
  replaced: PlannedAttempt
  /** The tool's no-proxy list, when a proxy applies to it: the attempt adds the relay's host to it. */
  noProxy?: string
  /** npm registry protocol: the `--replace-registry-host` npm's attempt adds (RelaySupport.fileHost), where packuments point tarballs (.tarballs). */
  fileHost?: string; tarballs?: 'index' | 'relay'
  /** When a page may come from a mirror (relay.md "Pages"): `failover` false with a private source (`why`) beside the index. */
  pages: { failover: boolean; silentMs: number; why?: string }
  certificate?: import('../relay/certificate.js').RelayCertificate
}

/** A fix learned in earlier runs: after `category` on `failingHost`, the source with health key `key` worked. */
export interface LearnedChoice {
  category: string
  failingHost: string
  key: string
  /** For messages: `tuna`. */
  sourceId: string
}

/** What a run will try, in order; never changed once made (rankSources returns a new one). */
export interface RunPlan {
  invocation: Invocation
  cwd: string
  /** Talks to an index: retried and planned per source. Otherwise one attempt, the command untouched. */
  networked: boolean
  userIndex: IndexChoice | null
  /** The person set the tool's own timeouts or retries: no attempt is left before the tool's own timeout ends it. */
  userKnobs: boolean
  /** The index the person's own settings use (theirs, the config's, or the tool's default): what lockfiles keep. */
  primary: Source
  /** One attempt per source, in the order they are tried; the loop may repeat one (see docs/plan.md). */
  attempts: PlannedAttempt[]
  /**
   * Where a version missing on a mirror is asked once: the public upstream when the plan's index is itself a mirror,
   * else the plan's own index (public or private: asking the person's own index is always safe).
   */
  upstream?: PlannedAttempt
  /** Why no mirror may be used, when none may (a private index, a requirement file pinning the index). */
  noSwitchReason?: string
  /**
   * A source of the person's own beside a public index: the relay's pages never fail over; where the tool merges names
   * (pip) `reason` is the noSwitchReason too, and `mirrors` may carry files the index's pages vouch for (relay.md).
   */
  privateBeside?: { reason: string; mirrors: Source[] }
  /**
   * Why resilient cannot be sure `primary` is the index the tool uses (a pyenv shim hides the interpreter's pip.conf):
   * the tool is asked before any attempt or probe leaves it or names the package to it (plan/confirm.ts).
   */
  unconfirmed?: string
  /** One sentence when the lockfile pins registries that some attempt still contacts. */
  lockedSources?: string
  /** Said before the run: a mirror skipped as insecure, --mirror ignored for a private index. */
  warnings: string[]
  /** Fixes learned for this tool on this network (rankSources fills it), the most recent first. */
  learned: LearnedChoice[]
  /** Set in offline mode: where the tool looks instead of an index. */
  offlineWhere?: string
  /** The proxies the tool is configured with: the diagnosis calls a failure the proxy's only at these addresses. */
  proxies?: readonly string[]
  /** The run's budget, from the config. */
  limits: { maxAttempts: number; maxTotalSeconds: number; maxWaitSeconds: number }
  /** Set when the first attempt goes through resilient's relay (plan/relay.ts). */
  relay?: RelayPlan
  /** Why no attempt goes through the relay, when the tool could use one. */
  noRelayReason?: string
}

/** closed: use it. open: failing from this network until `reopensAt`. half-open: on trial. */
export type BreakerVerdict = { state: 'closed' } | { state: 'open'; reopensAt: number } | { state: 'half-open' }

/** What the state says about one health key, as rankSources reads it. */
export interface SourceHealth {
  verdict: BreakerVerdict
  consecutiveFailures: number
  lastFailureAt?: number
}

/** The state as one run reads it, once, before the first attempt. */
export interface StateSnapshot {
  healthOf(key: string): SourceHealth
  /** Fixes learned for this tool, the most recent first. */
  learned: readonly LearnedChoice[]
  /** `resolver 10.0.0.1`: for messages. */
  network: string
}

/** One attempt as it happened. */
export interface AttemptRecord {
  number: number
  source: Source
  command: CommandLine
  /** The hosts the attempt contacted (its plan's hosts). */
  hosts: Host[]
  exitCode: number
  durationMs: number
  diagnosis: Diagnosis | null
  /** Bytes the attempt received and its average throughput, where measured (docs/stall-detection.md). */
  progress?: ProgressSummary
  /** resilient ended it itself (a stall, hedged detection): `exitCode` is then its own signal's, never the run's. */
  stopped?: boolean
}

export type Outcome = 'succeeded' | 'failed' | 'gave-up' | 'interrupted' | 'ran-once'

export interface RunResult {
  outcome: Outcome
  exitCode: number
  durationMs: number
  attempts: AttemptRecord[]
  /** Fixes the person agreed to during the run. */
  fixes?: string[]
  /** The last diagnosis and what the person should do, when resilient gave up. */
  finalDiagnosis?: Diagnosis
  stopReason?: string
  hint?: string
  /** The tool died of this signal, or it came while no tool ran: the CLI re-raises it (docs/process.md). */
  signal?: NodeJS.Signals
}
