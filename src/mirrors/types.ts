/** The package ecosystems a mirror can serve; each has its own catalog and config section. */
export type Ecosystem = 'pypi' | 'conda' | 'npm' | 'crates' | 'go'

/** Where a catalog mirror is. */
export type MirrorRegion = 'cn' | 'kr' | 'global'

/** A public mirror of an upstream index. */
export interface Mirror {
  /** Short name used in config, `--mirror` and messages (`tuna`). */
  id: string
  /** The index URL as the tool expects it (`https://.../simple`). */
  url: string
  /**
   * Where it is: `cn` in mainland China, `kr` in South Korea, `global` on a worldwide CDN. Every catalog entry says;
   * docs/mirrors.md lists them by it (src/mirrors/docs.ts).
   */
  region?: MirrorRegion
  /** The day this URL was last confirmed to be a working mirror, and by what. */
  checkedOn: string
}
