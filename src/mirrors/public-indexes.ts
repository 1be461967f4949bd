import type { Config } from '../config/schema.js'
import { MIRRORS, UPSTREAMS } from './index.js'
import type { Ecosystem } from './types.js'

/**
 * The indexes of `ecosystem` that resilient may send a tool's installs to in place of another: the public upstream,
 * the mirror catalog's, the config's own index, and `others` (the tool's default index, the mirrors the config and
 * --mirror name). Any other index is the person's own and is never replaced by a mirror (dependency confusion): the
 * plan's rule for a run (src/plan/sources.ts), and `resilient why`'s for a saved log.
 */
export function publicIndexes(ecosystem: Ecosystem, config: Config, others: readonly string[] = []): string[] {
  const index = config[ecosystem]?.index
  return [UPSTREAMS[ecosystem], ...(index ? [index] : []), ...MIRRORS[ecosystem].map(mirror => mirror.url), ...others]
}
