// The shapes every adapter part speaks in (a command line, the context it reads, the run's private directory): a
// leaf, so that the adapter's parts and the adapter itself can all name them without importing one another.

/** A command line to run: argv plus the environment variables resilient adds (never the whole environment). */
export interface CommandLine {
  /** Full argv, launcher included: `['python3', '-m', 'pip', 'install', 'torch']`. */
  argv: string[]
  /** Variables added for this attempt only; shown by formatCommand as `NAME=value` prefixes. */
  env: Record<string, string>
  /** Files written for this attempt only (pixi's mirror config); removed after the attempt. */
  files?: { path: string; content: string }[]
}

/**
 * The run's private directory (mkdtemp, 0700): the only place an adapter may name a file for an attempt
 * (CommandLine.files), so no file sits at a predictable path in a shared directory.
 */
export interface ScratchDir {
  path: string
}

/** Where the user already chose an index, and what it is. */
export interface IndexChoice {
  url: string
  /** Human-readable origin: `--index-url`, `PIP_INDEX_URL`, `/home/me/.config/pip/pip.conf`, `requirements.txt:3`. */
  origin: string
  /** The choice cannot be overridden for one invocation (a requirement file's `--index-url` beats the CLI). */
  locked?: boolean
  /**
   * Why this index is the user's private choice whatever its host: a setting resilient cannot read or parse (fail
   * closed), or a credential the user holds for that host. No mirror replaces it unless resilient's config names it.
   */
  privateBecause?: string
  /**
   * The choice stands in for the tool's default index itself, which no attempt can then reach: cargo's replacement of
   * crates-io cannot be pointed back at crates.io (cargo 1.95: "source `x` defines source registry `crates-io`, but
   * that source is already defined by `crates-io`"). A package a mirror lacks is asked of this index again instead.
   */
  replacesDefault?: boolean
}

/**
 * A source the tool reads package names from beside its index in the same run (pip's extra index or find-links, an
 * npm scope's registry): unless it is a public index resilient knows, it is the person's own, and no mirror may be
 * asked for a name it could shadow (docs/plan.md).
 */
export interface SourceBeside {
  /** As the tool takes it: a URL or a local path; empty when it could not be read. */
  url: string
  /** `--extra-index-url`, `PIP_FIND_LINKS`, `/etc/pip.conf`, `requirements.txt:2`, `.npmrc (@corp:registry)`. */
  origin: string
  /**
   * The tool merges its names with the index's (pip takes the newest version from every source): a mirror asked for
   * any name could shadow it, so no attempt goes to a mirror. Otherwise (npm sends a scope to its registry alone)
   * only the relay's pages stay on the index.
   */
  merged: boolean
}

/**
 * How long a tool waits on one silent request, and how many times it asks, by its own settings for one invocation:
 * what resilient says a silent index will cost (it never changes them).
 */
export interface Patience {
  timeoutMs: number
  tries: number
  /** The waits between its tries, added up. */
  betweenTriesMs: number
  /** Where they come from, in the tool's own terms: `--timeout 15, --retries 5`. */
  settings: string
}

/** What an adapter may read to find the user's own index choice: never the real process, always passed in. */
export interface ToolContext {
  args: string[]
  env: NodeJS.ProcessEnv
  cwd: string
  home: string
  /** Absolute path of the tool's executable, when known: npm's global npmrc lives under its install prefix. */
  executable?: string
}

/**
 * Credentials of an index never go on a child's command line, where any local user reads them in /proc/<pid>/cmdline:
 * they travel in the child's environment (readable by its owner only) or in a 0600 file in the run's
 * private directory. Each tool's way is data on its adapter (`passCredentials`); a tool with none gets the index
 * without credentials, and resilient says so when it plans.
 */
export interface SecretsContext {
  scratch: ScratchDir
  /** The caller's environment: where the user's own netrc or npmrc is. */
  env: NodeJS.ProcessEnv
}
