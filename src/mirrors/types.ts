/** The package ecosystems a mirror can serve; each has its own catalog and config section. */
export type Ecosystem = 'pypi' | 'conda' | 'npm' | 'crates' | 'go'

/** A public mirror of an upstream index. */
export interface Mirror {
  /** Short name used in config, `--mirror` and messages (`tuna`). */
  id: string
  /** The index URL as the tool expects it (`https://.../simple`). */
  url: string
  /** Where it serves best, for docs and ordering. */
  region?: string
  /** The day this URL was last confirmed to be a working mirror, and by what. */
  checkedOn: string
}
