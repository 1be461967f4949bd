import type { Ecosystem } from '../mirrors/types.js'

/** A command line to run: argv plus the environment variables resilient adds (never the whole environment). */
export interface CommandLine {
  /** Full argv, launcher included: `['python3', '-m', 'pip', 'install', 'torch']`. */
  argv: string[]
  /** Variables added for this attempt only; shown by formatCommand as `NAME=value` prefixes. */
  env: Record<string, string>
  /** Files written for this attempt only (pixi's mirror config); removed after the attempt. */
  files?: { path: string; content: string }[]
}

/** Where the user already chose an index, and what it is. */
export interface IndexChoice {
  url: string
  /** Human-readable origin: `--index-url`, `PIP_INDEX_URL`, `/home/me/.config/pip/pip.conf`, `requirements.txt:3`. */
  origin: string
  /** The choice cannot be overridden for one invocation (a requirement file's `--index-url` beats the CLI). */
  locked?: boolean
}

/** What an adapter may read to find the user's own index choice: never the real process, always passed in. */
export interface ToolContext {
  args: string[]
  env: NodeJS.ProcessEnv
  cwd: string
  home: string
}

/** Timeouts and retries that the tool itself would use; only tuned when the user set none. */
export interface ToolKnobs {
  /** A user setting for the tool's own timeout or retries exists (flag, env or config file). */
  userSet: boolean
  origin?: string
}

/**
 * Everything resilient knows about one package manager. Shared code branches on these fields, never on a tool name.
 * One file per tool under src/tools/, listed once in TOOLS.
 */
export interface ToolAdapter {
  /** The id users see and configure (`pip`, `yarn-berry`). */
  name: string
  /** Which mirror catalog and config section (`pypi`, `npm`, ...) serves this tool. */
  ecosystem: Ecosystem
  /** Executable names that start this tool directly. */
  executables: RegExp
  /** `python -m pip`: interpreters that may launch the tool as a module, and the module name. */
  moduleLaunch?: { interpreters: RegExp; module: string }
  /** Other spellings to suggest when the executable is not on PATH, in order of preference. */
  alternatives: string[][]
  /**
   * `network`: talks to an index, retried and redirected to mirrors. `local`: runs once, untouched.
   * `publish`: talks to an index with credentials or uploads: runs once, never redirected.
   */
  classify(args: string[]): 'network' | 'local' | 'publish'
  /** The index the user chose in args, env or the tool's config files; null when the tool default is in use. */
  findUserIndex(context: ToolContext): IndexChoice | null
  /** The tool's default index URL (the public upstream). */
  defaultIndex: string
  /** Rewrites a command so that this one invocation uses `url` as its index; writes nothing persistent. */
  applyIndex(command: CommandLine, url: string): CommandLine
  /** Whether the user already set the tool's timeout/retries anywhere; then resilient leaves them alone. */
  findUserKnobs?(context: ToolContext): ToolKnobs
  /** Shortens the tool's own timeout/retries so a dead index is detected in seconds, not minutes. */
  tuneForFastDetection?(command: CommandLine): CommandLine
  /** Bypasses the tool's download cache (after a hash mismatch, a cached bad file must not be reused). */
  bypassCache?(command: CommandLine): CommandLine
  /** The URL that answers whether a package exists on an index (PEP 503 project page, npm packument). */
  packageUrl?(indexUrl: string, name: string): string
  /** How the adapter was verified: against the real tool in e2e tests, or by replaying captured output. */
  verified: 'real' | 'replay'
  /** For docs: the exact means by which a mirror is applied. */
  mirrorMechanism: string
}
