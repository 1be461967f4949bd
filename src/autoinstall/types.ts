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
