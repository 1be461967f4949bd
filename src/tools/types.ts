import type { Ecosystem } from '../mirrors/types.js'
import type { SplitUrl } from '../secrets/url.js'
import type { AdapterData, ReadOnlyForms, ToolKnobs } from './adapter-data.js'
import type { AdviceSpec } from './advice.js'
import type { CommandLine, IndexChoice, Patience, ScratchDir, SecretsContext, SourceBeside, ToolContext } from './context.js'
import type { SourceQuestion } from './source/source-question.js'
import type { LockfileSupport } from './lockfile/lockfile-types.js'
import type { RelaySupport } from './relay/relay-support.js'

/**
 * Everything resilient knows about one package manager. Shared code branches on these fields, never on a tool name.
 * One file per tool under src/tools/, listed once in TOOLS.
 */
export interface ToolAdapter extends AdapterData {
  /** The id users see and configure (`pip`, `yarn-berry`). */
  name: string
  /** Which mirror catalog and config section (`pypi`, `npm`, ...) serves this tool. */
  ecosystem: Ecosystem
  /** Executable names that start this tool directly. */
  executables: RegExp
  /**
   * The adapter for an executable name that implies a verb (`npx` is `npm exec`, `pnpx` is `pnpm dlx`, `bunx` is
   * `bun x`): chosen from the name as typed, while the command is parsed, without running anything.
   */
  forExecutable?(name: string): ToolAdapter | undefined
  /** `python -m pip`: interpreters that may launch the tool as a module, and the module name. */
  moduleLaunch?: { interpreters: RegExp; module: string }
  /** Other spellings to suggest when the executable is not on PATH, in order of preference. */
  alternatives: string[][]
  /**
   * `network`: talks to an index, retried and redirected to mirrors. `local`: runs once, untouched.
   * `publish`: talks to an index with credentials or uploads: runs once, never redirected.
   */
  classify(args: string[]): 'network' | 'local' | 'publish'
  /**
   * Invocations that only read (`pip --version`, `npm ls`, `pip config get`); every one classifies as `local`. Shims
   * run them without starting Node; they are baked in at `resilient shim install`.
   */
  readOnly?: ReadOnlyForms
  /** The index the user chose in args, env or the tool's config files; null when the tool default is in use. */
  findUserIndex(context: ToolContext): IndexChoice | null
  /** Where findUserIndex cannot be certain, how the tool itself is asked before any attempt or probe leaves it. */
  source?: SourceQuestion
  /** The sources the tool reads names from beside its index in this run (pip's extra indexes and find-links). */
  sourcesBeside?(context: ToolContext): SourceBeside[]
  /** How long the tool itself waits on a silent index for this invocation (said when it does, never changed). */
  patience?(context: ToolContext): Patience
  /**
   * Why a retry must not reuse what the tool read from a streamed input (`-r <(...)`, stdin): resilient never reads
   * such a stream before the tool, so findUserIndex could not see an index chosen inside it (src/exec/input/replayable-input.ts).
   */
  vetStreamedInput?(text: string): string | undefined
  /** The tool's default index URL (the public upstream). */
  defaultIndex: string
  /**
   * Rewrites a command so that this one invocation uses `url` as its index; writes nothing persistent. `target.kind`
   * says whether it is the user's own index (`upstream`) or a mirror, which must get none of the user's credentials.
   */
  applyIndex(command: CommandLine, url: string, target?: { kind: string }): CommandLine
  /**
   * Why no mirror can serve this invocation although its index is public: the tool has no per-invocation index
   * switch (poetry), or a lockfile pins the download URLs (`uv sync --frozen`). Attempts then retry the same index.
   */
  noMirrorReason?(context: ToolContext): string | undefined
  /**
   * Gives the tool the credentials of `credentials.url` other than on its command line (a netrc, an npmrc, a
   * variable), for an index the command already names without them (src/tools/source/credentials.ts).
   */
  passCredentials?(command: CommandLine, credentials: SplitUrl, secrets: SecretsContext): CommandLine
  /** What every attempt after the first adds; the first runs as the person typed it (pip: no check for a newer pip). */
  forRetry?(command: CommandLine): CommandLine
  /** Bypasses the tool's download cache (after a hash mismatch, a cached bad file must not be reused). */
  bypassCache?(command: CommandLine): CommandLine
  /** Fixes resilient may offer the person when no automatic one exists (src/run/ask.ts); each for this run only. */
  personFixes?: {
    /** Accept the TLS certificate of one host (a TLS-inspecting proxy): pip `--trusted-host`. */
    trustHost?(command: CommandLine, host: string): CommandLine
    /** Send credentials to the user's own index for this run (pip: a netrc in the run's private directory). */
    withCredentials?(command: CommandLine, indexUrl: string, username: string, token: string, secrets: SecretsContext): CommandLine
    /** Install for the current user only: pip `--user`. */
    userInstall?(command: CommandLine): CommandLine
  }
  /** The URL that answers whether a package exists on an index (PEP 503 project page, npm packument). */
  packageUrl?(indexUrl: string, name: string): string
  /**
   * The project's lockfile, where it pins registry URLs (npm, yarn 1): read before planning so that every attempt
   * knows which registries it still downloads from, guarded during the run so that no mirror URL stays in it.
   */
  lockfile?: LockfileSupport
  /** Going through resilient's local relay for public indexes (src/tools/relay/relay-support.ts); absent: never. */
  relay?: RelaySupport
  /**
   * Why this tool never goes through the relay, when that is known for every invocation (conda records the channel
   * URL it downloaded from): shown by `-v` as the plan's reason for no relay.
   */
  noRelay?: string
  /** Next steps in this tool's own terms, for the causes a retry could not fix (src/tools/advice.ts). */
  advice: AdviceSpec
  /** How the adapter was verified: against the real tool in e2e tests, or by replaying captured output. */
  verified: 'real' | 'replay'
  /** For docs: the exact means by which a mirror is applied. */
  mirrorMechanism: string
  /**
   * The adapter to use for this invocation, when it depends on the installed tool (mamba 1.x takes conda's CLI,
   * 2.x micromamba's) or on the user's own setup (pixi merges the user's config into its mirror config).
   * Called once, right after the invocation is parsed, before any attempt or dry run.
   */
  resolveVariant?(executable: string, env: NodeJS.ProcessEnv, scratch?: ScratchDir): Promise<ToolAdapter>
  /**
   * resolveVariant's answer where files say it for sure (the package the executable belongs to, the project's
   * settings), without starting the tool; undefined leaves the question to resolveVariant. Never a guess: a wrong
   * variant plans the run for another tool.
   */
  variantFromFiles?(executable: string, context: ToolContext): ToolAdapter | undefined
  /**
   * Lets resolveVariant's answer be kept between runs (src/state/variant-cache.ts) instead of starting the tool every
   * time: what the answer depends on besides the executable itself (whose path, size and modification time always
   * count). Absent: resolveVariant runs every time.
   */
  variantCache?: {
    /** The adapters resolveVariant may return other than this one, so a kept name maps back to one of them. */
    variants: readonly ToolAdapter[]
    /** Files whose presence, size and modification time decide the variant, and environment variables that do. */
    inputs(context: ToolContext): { files: string[]; env: string[] }
  }
}

export type { CommandLine, IndexChoice, Patience, ScratchDir, SecretsContext, SourceBeside, ToolContext } from './context.js'
export type { SourceQuestion } from './source/source-question.js'
export type { LockedRegistries, LockfileFormat, LockfileGuard, LockfileRewrite, LockfileSupport, PinnedRegistry } from './lockfile/lockfile-types.js'
export type { ConfigFiles, EnvironmentSetting, KnobData, OfflineForm, ProgramRun, ReadOnlyCommand, ReadOnlyForms, ToolKnobs } from './adapter-data.js'
