/** The two kinds of script `resilient run` can repair: a Python interpreter's imports, Node's module resolution. */
export type ScriptEcosystem = 'python' | 'node'

/** A module the script could not import, as the output of its final, uncaught error tells it. */
export interface MissingModule {
  ecosystem: ScriptEcosystem
  /** The name in the error message: `google`, `yaml.nonexist`, `lodash/fp`. */
  reported: string
  /**
   * The longest name known: Python's dotted name recovered from the traceback's source line (`google.protobuf`
   * when the message only says `google`); for Node, the package part of the specifier (`lodash`, `@scope/pkg`).
   */
  name: string
  /** The parent of a dotted Python name could be imported (the message names `a.b`, not `a`). */
  parentImported?: boolean
  /** The file whose import failed, when the output says (the first entry of Node's require stack). */
  importer?: string
  /** The output lines that show it, for the person: the error line and the source line. */
  evidence: string[]
}

/** An import failure that installing a package cannot fix (a relative import, a builtin, a circular import...). */
export interface NotInstallable {
  reason: string
  hint?: string
  evidence: string[]
}

export type Detection = { kind: 'missing'; module: MissingModule } | { kind: 'not-installable'; refusal: NotInstallable }

/**
 * What resilient would install for a missing module. `allowlist`: a reviewed mapping; `proposed`: the import
 * name itself, only ever installed after the person confirms in a terminal; `refused`: never installed.
 */
export type Candidate =
  | { tier: 'allowlist' | 'proposed'; package: string; why: string; /** The import that must resolve afterwards. */ verifyModule: string }
  | { tier: 'refused'; reason: string; hint?: string }

export type Installable = Extract<Candidate, { tier: 'allowlist' | 'proposed' }>

/** What the project declares for a package: the requirement to install, or why it cannot come from the index. */
export interface Declaration {
  /** `PyYAML==5.4.1`, `lodash@^4.17.0`; absent when `unusable` says why. */
  requirement?: string
  /** Where: `requirements.txt:3`, `pyproject.toml [project.dependencies]`, `package.json dependencies`. */
  origin: string
  unusable?: string
}

/** One missing module and what resilient would do about it. */
export interface Choice {
  module: MissingModule
  candidate: Candidate
  declared?: Declaration
}

/** One package of the run's single install command. */
export interface Wanted {
  module: MissingModule
  candidate: Installable
  /** What goes on the command line: the project's declared requirement, or the bare name (the newest version). */
  requirement: string
  declared?: Declaration
}

/** The one install of a run, as shown before it runs. */
export interface InstallPlan {
  argv: string[]
  /** `argv` as one string (formatCommand). */
  command: string
  /** The interpreter or the project directory, for the person. */
  environment: string
  /** The directory the install runs in (a Node project's); the current one when absent. */
  cwd?: string
  /** Variables for the installer: the index the project declares (declared-python-source.ts), never on argv. */
  env?: Record<string, string>
}

/** Whether resilient may install where the script runs. */
export type Placement =
  | { kind: 'own' }
  /** A Python that is not a virtual environment: every program using it would see the change. */
  | { kind: 'global'; prefix: string; externallyManaged: boolean }
