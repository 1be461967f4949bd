import type { OptionSpec } from './argv/args.js'
import type { ToolContext } from './context.js'
import type { VerbTable } from './argv/verbs.js'

/**
 * The parts of an adapter that are plain data: shared code (offline mode, doctor, `resilient why`, the README's table
 * of tools) reads them instead of branching on a tool's name.
 */

/** Whether the person set the tool's own timeouts or retries (resilient never changes them either way). */
export interface ToolKnobs {
  /** A user setting for the tool's own timeout or retries exists (flag, env or config file). */
  userSet: boolean
  origin?: string
}

/**
 * The tool's own timeout and retry settings (src/tools/knobs.ts reads them): where the person may have set them.
 * resilient never changes them; when the person set one, it never leaves an attempt before the tool's own timeout
 * does (no hedged detection, src/retry/hedge.ts).
 */
export interface KnobData {
  /** Options that set them, in every spelling the tool's parser accepts (`--timeout`, `--default-timeout`). */
  options?: OptionSpec
  /** Variables that set them; `envIgnoresCase`: the tool reads them in any case (npm's `NPM_CONFIG_*`). */
  env: readonly string[]
  envIgnoresCase?: boolean
  /** Their keys in the tool's config files (ToolAdapter.configFiles). */
  settings?: readonly string[]
}

/** The configuration files a tool reads, and how resilient finds a setting in them for one invocation. */
export interface ConfigFiles {
  /** The files in the tool's own terms, for people (docs/tools, doctor): `pip.conf (PIP_CONFIG_FILE, ~/.config/pip)`. */
  names: readonly string[]
  /** Where the first of `keys` is set for this invocation (`/home/me/.npmrc fetch-retries`); undefined: nowhere. */
  find(keys: readonly string[], context: ToolContext): string | undefined
}

/** One read-only command of a tool (ToolAdapter.readOnly). */
export interface ReadOnlyCommand {
  /** The words after any leading flags, matched exactly and in order: `['list']`, `['config', 'get']`, `['--version']`. */
  words: readonly string[]
  /** Nothing may follow the words (`pip --version` is read-only; what `pip --version x` does is not our business). */
  exact?: boolean
  /**
   * sh `case` patterns (`*`, `?`, `[...]`, `[!...]`) of any later argument that makes the command talk to an index or
   * write: `--o*` for pip's `list --outdated` and every optparse prefix of it. A match sends the call through resilient.
   */
  deny?: readonly string[]
}

/**
 * Invocations that neither talk to an index nor change anything. A shim runs the real tool for them directly,
 * without starting Node (src/shims/read-only-script.ts); anything else goes through resilient. When in doubt, leave
 * a form out: a missing form costs a Node start, a wrong one loses resilient's help.
 */
export interface ReadOnlyForms {
  /** Options that take no value and change nothing, allowed before the words: pip `--isolated`, `-q`. */
  leadingFlags: readonly string[]
  commands: readonly ReadOnlyCommand[]
  /** Only for these executable names, when not for all of the adapter's (`uv pip list` is not `uvx pip list`). */
  executables?: RegExp
}

/**
 * How one command of the tool runs with no network, in the tool's own spelling. `wheelhouse`: it installs only from
 * a local directory of packages (`pypi.wheelhouse` in resilient's config), named by that flag after `args`.
 */
export interface OfflineForm {
  args: readonly string[]
  env?: Readonly<Record<string, string>>
  /** Where the tool looks instead of an index, for messages: `the npm cache`. */
  where: string
  wheelhouse?: { flag: string }
}

/** An environment variable that changes what the tool does under resilient, as `resilient doctor` explains it. */
export interface EnvironmentSetting {
  names: readonly string[]
  note: string
  /** When the value defeats a feature: what goes wrong and the fix (doctor reports it as a warning). */
  warn?(name: string, value: string): { message: string; fix: string } | undefined
}

/**
 * Invocations that fetch a package and then run its program (`npx`, `npm exec`, `pnpm dlx`, `yarn dlx`, `bunx`). They
 * are planned as an install of that package (mirrors, retries), but the program runs once: an attempt is retried only
 * when the tool itself failed to fetch before any program started (src/exec/program-start.ts), and the tool's own
 * timeouts are left as they are, since the program inherits them (a scaffolder's own `npm install`).
 */
export interface ProgramRun {
  /** These arguments fetch a package and run its program. */
  runs(args: readonly string[]): boolean
  /** The output ends in the tool's own error about the fetch, which it prints only when it ran nothing. */
  fetchFailed(output: string): boolean
  /** Why these arguments can never be told apart from the program's own failure (bun's `--bun` runs it in-process). */
  neverRetried?(args: readonly string[]): string | undefined
  /** A child process that is still the tool fetching, by its argv (`bun x` installs with a `bun add` child). */
  ownStep?(argv: readonly string[]): boolean
}

export interface AdapterData {
  /** Invocations that fetch a package and run its program (ProgramRun); absent: the tool has none. */
  program?: ProgramRun
  /** Where the person may set the tool's own timeouts and retries: found, they keep resilient from leaving an attempt early. */
  knobs?: KnobData
  /** The configuration files it reads (knobs, and for people: doctor and docs/tools). */
  configFiles?: ConfigFiles
  /** Which verbs talk to an index, which upload, what keeps a command local; read by classify (src/tools/argv/verbs.ts). */
  verbs?: VerbTable
  /**
   * Other names a person or a log uses for this tool that do not start it as the adapter knows it (`berry` for
   * yarn 2+): `resilient why --tool berry`, and a command line in a pasted log.
   */
  nicknames?: readonly string[]
  /**
   * Executable names a shim or a shell alias may stand in for (`resilient shim install`, `resilient init`), each one
   * matched by `executables`; absent: the adapter is reached only through another (yarn 2+ through `yarn`).
   */
  shimNames?: readonly string[]
  /** How a network command runs offline (`resilient --offline`); absent: the tool has no such flag or setting. */
  offline?: OfflineForm
  /** Variables of this tool that `resilient doctor` explains when they are set. */
  environment?: readonly EnvironmentSetting[]
  /** The invocations it handles, in the words of the README's table of tools (src/tools/docs.ts). */
  forms: string
  /** With `verified: 'real'`: the tool and version the e2e tests run in CI (`pip 23.2`). */
  testedWith?: string
  /**
   * How `resilient run` installs a missing module with this tool (src/autoinstall): one command for every package,
   * running no package code (no lifecycle scripts, wheels only). Names come after `--` where the tool accepts it.
   */
  scriptInstall?: {
    add(names: readonly string[]): string[]
    /** The tool's own removal command; absent: resilient removes what the run added itself. */
    remove?(names: readonly string[]): string[]
    /** Every install prunes what package.json does not declare (npm): the caller names those packages again. */
    prunesUndeclared?: boolean
  }
  /** How a Node project shows it uses this tool, for `resilient run` (src/autoinstall/node-project.ts). */
  nodeProject?: {
    /** Its lockfiles in a project folder. */
    lockfiles: readonly string[]
    /**
     * Which lockfile wins when a folder holds several, lowest first: a tool's own before npm's package-lock.json,
     * which pnpm and bun import from and may leave behind; Yarn 2+ before Yarn 1, whose yarn.lock name it shares.
     */
    precedence: number
    /** The manager of a project with no lockfile and no packageManager field (npm, which ships with Node). */
    isDefault?: boolean
    /** The lockfile is this tool's only if this holds (Yarn 2+ and Yarn 1 both write yarn.lock). */
    ownsLockfile?(dir: string, lockfile: string): boolean
    /** package.json `"packageManager": "<name>@<version>"` names this tool for these major versions. */
    packageManager: { name: string; majors?: { from?: number; below?: number } }
  }
}
