import { existsSync, readFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'

/**
 * Lockfiles that pin tarball URLs: a mirror given on the command line does not redirect those packages.
 * npm rewrites only registry.npmjs.org URLs to the configured registry (`replace-registry-host=npmjs`,
 * docs/content/using-npm/registry.md); yarn 1 uses every `resolved` URL verbatim (yarnpkg/yarn#3330).
 */

/** The nearest of `names` in `cwd` or a parent directory (a workspace's lockfile lives at its root). */
export function findUp(cwd: string, names: readonly string[]): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    for (const name of names) if (existsSync(join(dir, name))) return join(dir, name)
    if (dirname(dir) === dir) return undefined
  }
}

/** How many locked URLs point at each host, for the hosts `pinned` says a mirror cannot redirect. */
export function countLockedHosts(text: string, urls: RegExp, pinned: (host: string) => boolean): Map<string, number> {
  const hosts = new Map<string, number>()
  for (const match of text.matchAll(urls)) {
    let host: string
    try {
      host = new URL(match[1]!).host
    } catch {
      continue
    }
    if (pinned(host)) hosts.set(host, (hosts.get(host) ?? 0) + 1)
  }
  return hosts
}

/** One sentence naming the lockfile, the hosts it pins and what that means for a mirror. */
export function describeLockedHosts(file: string, hosts: Map<string, number>, consequence: string): string | undefined {
  if (!hosts.size) return undefined
  const total = [...hosts.values()].reduce((sum, count) => sum + count, 0)
  const named = [...hosts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([host]) => host).join(', ')
  return `${basename(file)} pins ${total} package${total === 1 ? '' : 's'} to ${named}${hosts.size > 3 ? ' and others' : ''}: ${consequence}`
}

/** Reads a lockfile, or undefined when there is none (or it cannot be read: nothing to say then). */
export function readLockfile(cwd: string, names: readonly string[]): { file: string; text: string } | undefined {
  const file = findUp(cwd, names)
  if (!file) return undefined
  try {
    return { file, text: readFileSync(file, 'utf8') }
  } catch {
    return undefined
  }
}
