import type { FaultChoice } from '../../../src/demo/fault-server.js'
import type { Certificates } from '../tls-front.js'

/** One index server of a case: its URL as the tool takes it, its request log, and how to stop it. */
export interface IndexServer {
  url: string
  port: number
  /** Paths requested, in order (decoded). */
  requests: string[]
  /** Bytes written to clients so far. */
  bytesSent(): number
  /** Behind a front (https), the URL clients reach it at, for the absolute links its pages give (npm's tarball URLs). */
  servedAt?(url: string): void
  close(): Promise<void>
}

/**
 * What a case installs: the public package (its oldest or newest version, or no version: what the index lists
 * decides), the private one, served only by a source of the person's own (a look-alike of a higher version is on
 * the mirror), or the one a lockfile pins to registry.npmjs.org's URLs (a name that does not exist there).
 */
export interface Want {
  package: 'public' | 'private' | 'pinned'
  version: 'oldest' | 'newest' | 'any'
}

/** Which server a subject starts: the index, the mirror (which also has the private name's look-alike), the person's own source. */
export type Role = 'index' | 'mirror' | 'private'

/**
 * A tool the matrix runs, and what it installs: two versions of one small package (the newer one is what a lagging
 * mirror lacks, and what an index that took a release down lacks), large enough that a trickle or a broken download
 * takes a visible part of the run; a private package and its look-alike.
 */
export interface Subject {
  tool: 'pip' | 'npm' | 'pnpm' | 'yarn' | 'berry' | 'bun' | 'cargo' | 'go' | 'pipx' | 'pdm' | 'poetry'
  /** The key of resilient's config that names the index and the mirror (`{ "crates": { "index": ..., "mirrors": [...] } }`). */
  ecosystem: 'pypi' | 'npm' | 'crates' | 'go'
  /** The public package's page, what the tool asks for first: where a fault on "the project page" applies. */
  page: string
  /** The private package's name as it appears in request paths (decoded). */
  privateName: string
  /** Bytes of the public package's file (each version's), for a trickle that lasts a few seconds and the bytes a break may cost. */
  fileBytes: number
  isFile(path: string): boolean
  start(options: { role: Role; fault?: FaultChoice; lacksNewest?: boolean; cacheable?: boolean }): Promise<IndexServer>
  /** The command, its working directory prepared (a project, a lockfile), with the index given as the person gives it. */
  command(index: string, workdir: string, options: { want: Want; extra: readonly string[] }): string[]
  /**
   * Variables of the command in `workdir`, the index among them where the tool takes it from its environment alone
   * (yarn berry has no registry flag; GOPROXY, PIP_INDEX_URL for pipx, PDM_PYPI_URL), and the settings a test needs
   * (berry's node_modules linker, no telemetry; the tool's home in the working directory, where `installed` reads it).
   */
  env?(index: string, workdir: string): Record<string, string>
  /** What the command installed in `workdir`, in the form `expected` gives it. */
  installed(workdir: string, want: Want): string[]
  /** What installing `want` gives from sources that hold everything, `version` standing for `any`. */
  expected(want: Want, version: 'oldest' | 'newest'): string[]
  /** How the person names a source of their own beside the index: arguments, environment, files in the project. */
  privateSource?(url: string): { args?: string[]; env?: Record<string, string>; files?: Record<string, string> }
  /** The arguments (or variables) by which the tool trusts the sources' certificate, and presents the person's when asked. */
  trust?(certificates: Certificates, clientCertificate: boolean): { args?: string[]; env?: Record<string, string> }
  /**
   * Every case's index and mirror on https (trusted by `trust`), not only the https cases': the tool asks a plain-http
   * host only with a setting of the person's that keeps resilient's relay away (berry's unsafeHttpWhitelist), and the
   * public indexes it is relayed for are https.
   */
  https?: boolean
  /** The tool's own timeout and retries, set as the person would: short, so that a hang fails in seconds. */
  ownTimeout: readonly string[]
  /**
   * The tool's own waits between its retries, set short as a person may (pnpm's 10 s, then 60 s, by default), for a
   * row where they decide nothing but how long the plain tool takes to fail (a dead index). Unset: the tool's own.
   */
  shortRetryWaits?: readonly string[]
  /**
   * The tool's own read timeout alone, set short (3 s): a download that goes silent that long fails, one that keeps
   * trickling does not. Empty where the tool has none apart from the whole request's (npm's fetch-timeout).
   */
  readTimeout: readonly string[]
  /**
   * Why, with a mirror, the tool cannot win a case the matrix expects won (DifferentialCase.shouldWin), by case id:
   * what keeps resilient from doing better than the plain tool there, by design. Said in the table, never faked.
   */
  notWon?: Readonly<Partial<Record<string, string>>>
}

/** The version `want` names: its own, or for `any` the one the sources' listing makes the tool pick. */
export const pickVersion = <T>(want: Want, version: 'oldest' | 'newest', [oldest, newest]: readonly [T, T]) => (want.version === 'newest' || (want.version === 'any' && version === 'newest') ? newest : oldest)
