import type { FailureKind } from './types.js'

/**
 * "Pages are authority, files are content" (docs/relay.md): a page says which versions exist and what each file's
 * digest is, so it comes from the index the tool chose. A mirror's page is taken only once the index has failed:
 * refused, reset, a 5xx or a 429 after the index was asked again once (as the tool itself retries), or silent past
 * `silentMs`; never because a mirror answers sooner. Mirrors lag and keep what the index removed: their pages are
 * counted, and the run says so once.
 */
export interface PageSettings {
  /**
   * False when the run has a private source beside the index (pip's extra index or find-links, an npm scope's
   * registry): the index's failure then reaches the tool as it would without resilient, and no mirror is asked for
   * a name it could shadow.
   */
  failover: boolean
  /** How long the index may send nothing for a page before it counts as failed (src/plan/relay.ts pageSilenceMs). */
  silentMs: number
}

/** Why the index's pages were left for a mirror's. */
export type IndexFailure = Exclude<FailureKind, 'not-found' | 'truncated' | 'hash-mismatch' | 'bad-range'> | 'truncated'

/** What --report says when any page came from a mirror: the index, why it was left, and the pages per mirror. */
export interface MirrorPages {
  index: string
  because: IndexFailure
  pages: Record<string, number>
}

/**
 * The index's standing for pages during one run. `down` from its failure on a page until it answers one again:
 * while down, a page is asked of the index and the mirrors at once (a dead index costs its silence bound once per
 * run, not once per page), and the index's request is left to answer, so that it is back as soon as it is.
 */
// Enough for the largest installs (a few thousand packages), bounded against a run that never ends.
const MAX_LOGGED = 20_000

export class PageAuthority {
  private failure: IndexFailure | undefined
  private lastFailure: IndexFailure | undefined
  private readonly fromMirrors = new Map<string, number>()

  constructor(readonly settings: PageSettings, private readonly indexId: string) {}

  get down(): boolean {
    return this.failure !== undefined
  }

  /** The index failed a page (after its one retry) or stayed silent past the bound. */
  indexFailed(kind: IndexFailure): void {
    this.failure = kind
    this.lastFailure = kind
  }

  /** The index answered a page (a 404 included: that is its answer). */
  indexAnswered(): void {
    this.failure = undefined
  }

  /** A page the tool got (`path`, as the tool asked for it), from the index or a mirror. */
  servedBy(source: string, path?: string): void {
    if (source === this.indexId) {
      if (path !== undefined && this.indexPages.size < MAX_LOGGED) this.indexPages.add(path)
      return
    }
    this.fromMirrors.set(source, (this.fromMirrors.get(source) ?? 0) + 1)
  }

  /** The paths of the pages the tool got from the index itself (at most MAX_LOGGED): what its cache may keep as the index's. */
  readonly indexPages = new Set<string>()

  summary(): MirrorPages | undefined {
    if (!this.fromMirrors.size) return undefined
    return { index: this.indexId, because: this.lastFailure ?? 'timeout', pages: Object.fromEntries(this.fromMirrors) }
  }
}
