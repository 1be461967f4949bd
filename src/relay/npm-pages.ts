import { hashesFromNpmDist, type ExpectedHash } from './expected-hash.js'
import { relayPathOf } from './links.js'
import type { TokenRule } from './token-stream.js'

export interface PackumentContext {
  roots: readonly string[]
  /**
   * Where `dist.tarball` should point: the index's own root (npm then records in package-lock.json exactly what the
   * index would have given it, and `--replace-registry-host` sends the download through the relay), or the relay.
   */
  tarballRoot: string
  /** Receives each tarball's relay path and published digests. */
  learn(path: string, hashes: ExpectedHash[]): void
}

/** The end of the JSON object whose `{` is at `from`: braces counted outside strings; -1 when the text ends first. */
function objectEnd(text: string, from: number): number {
  let depth = 0
  let inString = false
  for (let i = from; i < text.length; i++) {
    const char = text[i]
    if (inString) {
      if (char === '\\') i++
      else if (char === '"') inString = false
    } else if (char === '"') inString = true
    else if (char === '{') depth++
    else if (char === '}' && --depth === 0) return i + 1
  }
  return -1
}

const TARBALL = /("tarball"\s*:\s*)"((?:[^"\\]|\\.)*)"/

/**
 * The rule that rewrites each version's `dist.tarball` in a packument as it streams, and learns its `integrity`
 * (or `shasum`). A `"dist":{` can only be a key (a quote inside a JSON string is escaped), and each dist object is
 * small, so it is read whole; `integrity`, `shasum`, `signatures` and every other byte stay as they were.
 */
export function packumentRule(context: PackumentContext): TokenRule {
  return {
    start: /"dist"\s*:\s*\{/g,
    startLength: 64,
    token(text, _from, after, final) {
      const end = objectEnd(text, after - 1)
      if (end < 0) return final ? undefined : 'incomplete'
      const raw = text.slice(after - 1, end)
      let dist: { tarball?: unknown; integrity?: unknown; shasum?: unknown }
      try {
        dist = JSON.parse(raw)
      } catch {
        return undefined
      }
      const path = typeof dist.tarball === 'string' ? relayPathOf(dist.tarball, context.roots) : undefined
      if (!path) return undefined
      context.learn(path, hashesFromNpmDist(dist.integrity, dist.shasum))
      const replaced = raw.replace(TARBALL, (_whole, lead: string) => `${lead}${JSON.stringify(`${context.tarballRoot}${path}`)}`)
      return { end, replacement: text.slice(_from, after - 1) + replaced }
    },
  }
}
