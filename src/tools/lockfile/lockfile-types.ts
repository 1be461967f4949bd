import type { CommandLine, ToolContext } from '../context.js'

/** A lockfile edited for one attempt only (yarn 1 on a mirror) and put back byte for byte after it. */
export interface LockfileRewrite {
  file: string
  /** Registry prefixes (`https://registry.yarnpkg.com/`) whose pinned URLs are pointed at `to` for the attempt. */
  from: string[]
  to: string
}

/** The project's lockfile as it was before a run (src/tools/lockfile/lockfile-registry.ts guardLockfile). */
export interface LockfileGuard {
  /**
   * Puts back what attempts on mirrors wrote: a `resolved` URL the run moved to a mirror gets the URL the lockfile
   * held before for that package, a new one the registry of `primaryUrl` (credentials stripped), atomically; every
   * other byte stays as it was. Undefined when there is no lockfile or nothing to restore.
   */
  restore(context: { mirrorUrls: readonly string[]; primaryUrl: string }): Promise<{ file: string; replaced: number } | undefined>
}

/** Where a lockfile format lives and how to find its `resolved` URLs. */
export interface LockfileFormat {
  /** File names in order of precedence, looked for in the current folder and then its parents. */
  names: readonly string[]
  /** Every `resolved` URL; undefined when the text is not this format (a merge conflict): nothing is touched then. */
  findUrls(text: string): Promise<{ url: string; start: number }[] | undefined>
  /** A quick scan for pinned URLs (first group), for planning: no parser is loaded on the way to the first attempt. */
  pinnedUrls: RegExp
}

/** A registry the project's lockfile pins, as planRun sees it. */
export interface PinnedRegistry {
  /** Registry prefix of the pinned tarball URLs: `https://registry.yarnpkg.com/`. */
  prefix: string
  /** How many `resolved` URLs use it. */
  count: number
  /** Public, or named in resilient's config: a mirror may stand in for it. Never true for a private registry. */
  replaceable: boolean
}

/** The lockfile found for a run and the registries it pins. */
export interface LockedRegistries {
  file: string
  registries: { prefix: string; count: number }[]
  /** Registries the tool's config sends scoped packages to (npm `@scope:registry`), which a redirect must not reach. */
  scoped?: string[]
}

/** How a tool's lockfile pins registries, and how an attempt on a mirror makes them follow it. */
export interface LockfileSupport {
  format: LockfileFormat
  /** Pinned registries the tool itself fetches from the attempt's registry (npm: registry.npmjs.org URLs). */
  follows(prefix: string): boolean
  /**
   * Makes an attempt that sets `registryUrl` download the replaceable pinned registries from it: a flag (npm
   * `--replace-registry-host`) or the lockfile rewritten for that attempt only (yarn 1), never reaching `keepOut`
   * (private registries). Returns the prefixes that then follow it (the others are still contacted), and why not when
   * it declined one.
   */
  redirect(command: CommandLine, registryUrl: string, pinned: readonly PinnedRegistry[], file: string, keepOut: readonly string[]): { command: CommandLine; rewrite?: LockfileRewrite; followed: string[]; declined?: string }
  /** The registries the tool's config names for scoped packages (npm `@scope:registry`), read with the lockfile. */
  scopedRegistries?(context: ToolContext): string[]
  /** What a pinned registry no attempt redirects means, for the person (after "<file> pins N packages to <host>:"). */
  consequence: string
}
