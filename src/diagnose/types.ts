/** Root-cause labels: the labels of the failure corpus too (its cases are kept in test/fixtures/output). */
export const CATEGORIES = ['timeout', 'connection', 'dns', 'ssl', 'proxy', 'http_auth', 'rate_limited', 'server_error',
  'package_not_found', 'hash_mismatch', 'resolution_conflict', 'build_failure', 'python_version', 'permission',
  'externally_managed', 'disk_full', 'lock_busy', 'module_not_found', 'other'] as const
export type Category = (typeof CATEGORIES)[number]

/** What a failed attempt left behind; `output` is the bounded tail of stdout+stderr. */
export interface Failure {
  tool: string | null
  output: string
  exitCode?: number
  /** argv of the attempt, for rules that depend on the verb. */
  command?: string[]
  /**
   * The proxies the tool was configured with (HTTPS_PROXY and friends, the tool's own setting), as URLs or
   * host:port. A failure is called the proxy's only at one of these addresses, or where the tool shows it used one.
   */
  proxies?: readonly string[]
  /**
   * Measurement only (`npm run bench`): narrows a rule's keyword pattern, so that a fold is judged without the wording
   * learned from its own source (bench/accuracy.mjs). Never set by the retry loop or `why`.
   */
  forget?: (pattern: RegExp) => RegExp
  /**
   * What each source behind resilient's relay answered during this attempt, by source id (src/run/relay.ts): a source
   * whose only answers were server errors failed, whatever the tool concluded from the pages it did not get.
   */
  relayed?: Readonly<Record<string, SourceAnswers>>
  /**
   * The relay the attempt went through: the `host:port` the tool met (its messages name it), and each source's
   * `host:port` by source id. The diagnosis names the source that failed, never the relay's loopback address.
   */
  relay?: { address: string; hosts: Readonly<Record<string, string>> }
}

/** One source's answers to the relay during an attempt: responses passed on to the tool, and failures by kind. */
export interface SourceAnswers {
  served: number
  /** Failures by the relay's kind (`server-error`, `rate-limited`, `not-found`, `timeout`, `reset` ...). */
  failures: Readonly<Partial<Record<string, number>>>
}

/** Facts read from the output; the remedy depends on them. */
export interface Facts {
  host?: string
  url?: string
  status?: number
  package?: string
  version?: string
  /** `(from versions: ...)`: empty means the index listed nothing, which is not proof the package is missing. */
  versionsAvailable?: string[]
  /**
   * What proves a package missing; `package_not_found` needs it (diagnose() refuses the label without it).
   * `status`: the index answered 404/410 for the package's own page or file. `listing`: the tool read the index's
   * listing of the name (a simple page, a packument, a channel's repodata) and says no version of it matches, which
   * it says only after reading it (pip's "(from versions: 1.0, 2.0)", npm's ETARGET, conda's PackagesNotFoundError).
   */
  absence?: 'status' | 'listing'
  /** The other indexes the tool says it looked in besides its first (pip's `Looking in indexes: a, b`), redacted as printed. */
  otherIndexes?: string[]
  retryAfterSeconds?: number
  errno?: string
  /** The failing host is the proxy, not the index. */
  viaProxy?: boolean
  /** What the failing host is: the index the output says it uses, a known public mirror or upstream, a file host, the proxy. */
  hostRole?: HostRole
}

/**
 * `index`: the index the output or the command names (`Looking in indexes:`, `--registry`); `mirror`/`upstream`: a
 * public index from src/mirrors; `file-host`: where an index sends downloads (files.pythonhosted.org, GitHub
 * releases, object storage); `proxy`: the HTTP proxy between the tool and the index.
 */
export type HostRole = 'index' | 'mirror' | 'upstream' | 'file-host' | 'proxy'

/** What to do about a failure. Data only: src/retry/ interprets it. */
export type Remedy =
  | { kind: 'retry' }
  /** `once`: one attempt on another source, never the same one again (an unrecognised failure with network evidence). */
  | { kind: 'switch-mirror'; bypassCache?: boolean; once?: boolean }
  | { kind: 'wait' }
  | { kind: 'upstream' }
  | { kind: 'give-up'; hint: string }

/** What a rule returns when it matches: the lines that prove it, and facts it read. */
export interface RuleMatch {
  evidence: string[]
  facts?: Facts
  /** Overrides the rule's summary with one naming what was read (host, package). */
  summary?: string
  /** Overrides the rule's remedy for what this match read (pip-nothing-listed: no mirror when other indexes were read). */
  remedy?: Remedy
}

export interface Rule {
  /** Same string as the file name and the README row: `<tool|any>-<symptom>`. */
  id: string
  category: Category
  /** Tools whose output this rule understands; `any` for messages that all tools share (OS errors, urllib3). */
  tools: readonly string[] | 'any'
  /** One line, for the README table and as the default summary. */
  summary: string
  /** Pure: reads the normalised output, does no I/O. */
  match(failure: NormalizedFailure): RuleMatch | null
  /** Overrides the category's default remedy. */
  remedy?: Remedy
}

/** A failure after normalisation: ANSI, progress redraws, prefixes and hard wraps removed. */
export interface NormalizedFailure extends Failure {
  /** Normalised text. */
  text: string
  lines: string[]
  /** The whole normalised output, when `text` and `lines` are only its innermost causes (src/diagnose/cause.ts). */
  fullText?: string
}

export interface Diagnosis {
  category: Category
  ruleId: string
  summary: string
  evidence: string[]
  facts: Facts
  remedy: Remedy
  /** Another attempt (after waiting, or on another mirror) can succeed without the person doing anything. */
  retryable: boolean
  /**
   * The next step for the person, in every case: what they must do when no retry helps (the give-up remedy's hint),
   * otherwise what resilient does about it. The only such field: a run's own `hint` (RunResult) is chosen from it.
   */
  nextStep: string
}

/** Told of a rule whose `match` threw: the rule is skipped, the run goes on. */
export type RuleErrorHandler = (rule: Rule, error: unknown) => void
