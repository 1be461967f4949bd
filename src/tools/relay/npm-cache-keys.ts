import { homedir } from 'node:os'
import { join } from 'node:path'
import type { ToolContext } from '../types.js'

// make-fetch-happen's cache key (lib/cache/key.js): the request URL as url.format writes it, no auth, no fragment.
const keyOf = (url: string) => `make-fetch-happen:request-cache:${url}`

interface CacheEntry {
  integrity: string
  size: number
  time: number
  metadata?: { url?: string } & Record<string, unknown>
}
interface Cacache {
  get: { info(cache: string, key: string): Promise<CacheEntry | null> }
  index: { insert(cache: string, key: string, integrity: string, options: { metadata?: unknown; size?: number; time?: number }): Promise<unknown> }
}

/**
 * npm keys its cache by URL: what it fetched through the relay is kept under the relay's URLs, where a later plain
 * `npm install --offline` or `--prefer-offline` against the index would never look. For each packument the tool got
 * from the index itself through the relay (never a mirror's: its copy may lag), the entry npm wrote is indexed
 * under the index's URL too: the same content, what plain npm would have written (cacache's own index, an appended
 * line; nothing is removed or rewritten). `cacheDir` is npm's `cache` setting.
 */
export async function keepNpmCacheForPlainNpm(cacheDir: string, relay: { base: string; index: string; pages: readonly string[] }): Promise<number> {
  // Nothing fetched (an install with nothing to install, `npm ci` from a warm cache): cacache and the dozen packages
  // it loads would cost about 30 ms of CPU after the tool has exited, for nothing to keep.
  if (relay.pages.length === 0) return 0
  const cache = join(cacheDir, '_cacache')
  // cacache is npm's own cache library; loaded only after a run through the relay.
  const cacache = (await import('cacache')) as unknown as Cacache
  const index = relay.index.endsWith('/') ? relay.index : `${relay.index}/`
  let kept = 0
  const keep = async (path: string) => {
    try {
      const entry = await cacache.get.info(cache, keyOf(`${relay.base}${path}`))
      if (!entry) return
      const url = `${index}${path}`
      await cacache.index.insert(cache, keyOf(url), entry.integrity, { metadata: { ...entry.metadata, url }, size: entry.size, time: entry.time })
      kept++
    } catch {
      // An entry npm could not write, or a cache that is not ours to write: plain npm fetches it again, as it would.
    }
  }
  // Done after the tool has exited, before resilient does: one page after the other, 200 packuments cost about a
  // third of a second of a healthy install; sixteen at a time, as many small files as the disk takes at once.
  const pending = [...relay.pages]
  await Promise.all(Array.from({ length: Math.min(16, pending.length) }, async () => {
    for (let path = pending.shift(); path !== undefined; path = pending.shift()) await keep(path)
  }))
  return kept
}

/** npm's cache folder for this command: `--cache`, npm_config_cache, an npmrc's `cache`, else ~/.npm (npm config.md). */
export function npmCacheDir(context: ToolContext, setting: (context: ToolContext, name: string) => string | undefined): string {
  return setting(context, 'cache') ?? join(context.home || homedir(), '.npm')
}
