/** Where the look-ahead starts from, for one command: what the project asks for, and what the tool will not ask for. */
export interface LookAheadSeeds {
  /** Packages the project asks for (its manifest, the command line), fetched once the tool shows a cold cache. */
  seeds: readonly string[]
  /** Packages the tool will not ask a registry for (its lockfile has them, or the project provides them): never fetched ahead. */
  locked: readonly string[]
}

/**
 * npm asks for a project's own dependencies one packument at a time: each waits for the previous one's round trip,
 * so an install of 200 of them with a registry 20 ms away spends 4 of its 8 seconds waiting. The relay fetches
 * those packuments ahead, several at once, and answers npm's request from memory when it comes. Only the packages
 * the project and the command name: npm asks for each of them on a cold cache. Guessing deeper (the dependencies of
 * each package's latest version) was tried against registry.npmjs.org and dropped: `express@^4` made it follow
 * express 5's tree, 160 packuments npm never asked for, while npm asked for a package's own dependencies at once.
 * What npm receives is the body and headers the request would have fetched a few seconds later: the same rewrite,
 * the same headers, with a Content-Length.
 *
 * Only what the tool would ask this relay for is fetched ahead: never a package locked already, never a name from a
 * spec that is not the registry's (git, file, URL), and a scoped package only once the tool has asked the relay for
 * a package of that scope (a scope sent to a private registry never reaches the relay, so its names stay unknown to
 * the public one). It starts only when the tool asks for one of those packages without a cached copy (a cold
 * cache), and holds a bounded number of bytes.
 */

/** A packument fetched ahead, ready for the tool: what it would have received. */
export interface HeldPage {
  status: number
  headers: Record<string, string>
  body: Buffer
  /** The source that gave it, and the bytes it sent (its body as it came, before the rewrite). */
  source: string
  upstreamBytes: number
}

export interface LookAheadLimits {
  /** Packuments fetched ahead at once. */
  concurrency: number
  /** Bytes held for the tool at once: past it, fetching waits for the tool to take some. */
  maxHeldBytes: number
  /** Packuments fetched ahead in one run, at most. */
  maxNames: number
}

export const DEFAULT_LOOK_AHEAD: LookAheadLimits = { concurrency: 8, maxHeldBytes: 24 * 2 ** 20, maxNames: 3000 }

/** Fetches one packument the way the tool's request would, with `headers`; undefined when there is no 200 to hold. */
export type FetchAhead = (path: string, headers: Record<string, string>, signal: AbortSignal) => Promise<HeldPage | undefined>

// A request that revalidates a cached copy is the tool's own to make (a 304 is all it may need).
const CONDITIONAL = ['if-none-match', 'if-modified-since']

interface Entry {
  accept: string | undefined
  page: Promise<HeldPage | undefined>
  /** Counted in the bytes held while it waits for the tool. */
  bytes: number
}

const scopeOf = (name: string) => name.startsWith('@') ? name.slice(0, name.indexOf('/')) : undefined

export class LookAhead {
  private readonly limits: LookAheadLimits
  private readonly locked: ReadonlySet<string>
  private readonly seedSet: ReadonlySet<string>
  /** Names the tool asked for, or that are queued, fetching or held: each is fetched ahead once at most. */
  private readonly known = new Set<string>()
  /** Names the tool asked for itself: never fetched ahead after that. */
  private readonly asked = new Set<string>()
  private readonly queue: string[] = []
  private readonly held = new Map<string, Entry>()
  /** Scoped names waiting for the tool to show that their scope comes to the relay. */
  private readonly parked = new Map<string, Set<string>>()
  private readonly scopes = new Set<string>()
  private readonly controller = new AbortController()
  /**
   * The headers of the tool's packument requests, learned from its first one for a seed with a cold cache. Not from
   * any request: npm's update check asks for npm's own packument first, with another Accept than the install's.
   */
  private shape: Record<string, string> | undefined
  private running = 0
  private heldBytes = 0
  private started = 0
  /** What it did in this run, for the report. */
  readonly counts = { fetched: 0, used: 0, usedBytes: 0 }

  constructor(private readonly fetchAhead: FetchAhead, private readonly pathOf: (name: string) => string, private readonly seeds: LookAheadSeeds, limits: Partial<LookAheadLimits> = {}) {
    this.limits = { ...DEFAULT_LOOK_AHEAD, ...limits }
    this.locked = new Set(seeds.locked)
    this.seedSet = new Set(seeds.seeds)
  }

  /**
   * The tool asks for `name`'s packument: what was fetched ahead for it, when the request is one it answers (no
   * cached copy to revalidate, the same Accept); undefined sends the request upstream as usual.
   */
  take(name: string, headers: Record<string, string>): Promise<HeldPage | undefined> | undefined {
    const scope = scopeOf(name)
    if (scope && !this.scopes.has(scope)) this.openScope(scope)
    const entry = this.held.get(name)
    this.known.add(name)
    this.asked.add(name)
    if (entry) this.held.delete(name)
    const fresh = !CONDITIONAL.some(header => headers[header] !== undefined)
    if (fresh && !this.shape && this.seedSet.has(name)) this.arm(headers)
    if (!entry) return undefined
    if (!fresh || entry.accept !== headers.accept) return void entry.page.then(() => this.release(entry))
    return entry.page.then(page => {
      this.release(entry)
      if (page) {
        this.counts.used++
        this.counts.usedBytes += page.upstreamBytes
      }
      return page
    })
  }

  close(): void {
    this.controller.abort()
    this.queue.length = 0
    this.held.clear()
  }

  private arm(headers: Record<string, string>): void {
    this.shape = { ...headers }
    for (const name of [...this.seeds.seeds].sort()) this.enqueue(name)
  }

  private openScope(scope: string): void {
    this.scopes.add(scope)
    const waiting = this.parked.get(scope) ?? []
    this.parked.delete(scope)
    for (const name of waiting) this.enqueue(name)
  }

  private enqueue(name: string): void {
    if (this.known.has(name) || this.locked.has(name)) return
    const scope = scopeOf(name)
    if (scope && !this.scopes.has(scope)) {
      const waiting = this.parked.get(scope) ?? new Set()
      this.parked.set(scope, waiting.add(name))
      return
    }
    this.known.add(name)
    this.queue.push(name)
    this.pump()
  }

  private release(entry: Entry): void {
    this.heldBytes -= entry.bytes
    entry.bytes = 0
    this.pump()
  }

  private pump(): void {
    const { concurrency, maxHeldBytes, maxNames } = this.limits
    while (this.shape && this.running < concurrency && this.heldBytes < maxHeldBytes && this.started < maxNames && !this.controller.signal.aborted) {
      const name = this.queue.shift()
      if (name === undefined) return
      if (this.asked.has(name)) continue
      this.started++
      this.running++
      const headers: Record<string, string> = { ...this.shape, ...(this.shape['pacote-pkg-id'] !== undefined && { 'pacote-pkg-id': `registry:${name}` }) }
      const entry: Entry = { accept: headers.accept, bytes: 0, page: Promise.resolve(undefined) }
      entry.page = this.fetchAhead(this.pathOf(name), headers, this.controller.signal).catch(() => undefined).then(found => {
        this.running--
        if (found) {
          this.counts.fetched++
          if (this.held.get(name) === entry) this.heldBytes += entry.bytes = found.body.length
        }
        this.pump()
        return found
      })
      this.held.set(name, entry)
    }
  }
}
