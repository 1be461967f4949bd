import { indexKey } from '../url.js'

/**
 * What resilient's own requests to an index heard during one failure's handling, shared by the probe (the package's
 * page) and the check whether a source answers at all: an index that just gave the probe no answer is not asked
 * again and waited for a second time, so the run gives up within seconds of the tool's own giving up.
 */
export class IndexAnswers {
  private readonly heard = new Map<string, { answered: boolean; at: number }>()

  constructor(private readonly now: () => number = Date.now, private readonly freshMs = 10_000) {}

  record(index: string, answered: boolean): void {
    this.heard.set(indexKey(index), { answered, at: this.now() })
  }

  /** What `index` answered in the last few seconds; undefined when it was not asked. */
  recent(index: string): boolean | undefined {
    const entry = this.heard.get(indexKey(index))
    return entry && this.now() - entry.at <= this.freshMs ? entry.answered : undefined
  }
}
