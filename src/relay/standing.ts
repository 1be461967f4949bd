/**
 * Which sources are failing right now, from the relay's own requests: one whose last answers all failed or came
 * after another source's is asked after the others (the index first only while it answers), and again first once
 * every `retryMs`, so that it is back in front as soon as it recovers. Nothing is ever dropped: it is only asked later.
 */
export class Standing {
  private readonly recent = new Map<string, boolean[]>()
  private readonly triedAt = new Map<string, number>()

  constructor(private readonly now: () => number, private readonly streak = 3, private readonly retryMs = 5000) {}

  /** One request's outcome on `source`: it answered first (true), or it failed, or another source answered first. */
  record(source: string, answered: boolean): void {
    const list = this.recent.get(source) ?? []
    list.push(answered)
    if (list.length > this.streak) list.shift()
    this.recent.set(source, list)
  }

  /** Whether `source` is to be asked after the others now (false once in a while: a retry in front). */
  behind(source: string): boolean {
    const list = this.recent.get(source)
    if (!list || list.length < this.streak || list.some(Boolean)) return false
    const now = this.now()
    const since = this.triedAt.get(source)
    if (since !== undefined && now - since < this.retryMs) return true
    this.triedAt.set(source, now)
    // Put behind from its third failure in a row on; one request in front again after each `retryMs`.
    return since === undefined
  }
}
