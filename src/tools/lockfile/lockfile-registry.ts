import { replaceOwnFile } from '../../files/locked-file.js'
import { registryPrefixOf } from '../../url.js'
import { readLockfile } from './locked-registries.js'
import { withTrailingSlash } from '../npm-family.js'
import { spliceText } from '../argv/splice-text.js'
import type { LockedRegistries, LockfileFormat, LockfileGuard } from '../types.js'

/**
 * npm and yarn 1 write the tarball URL of every package they newly resolve into the lockfile, so an install that
 * ran on a mirror would pin the project to that mirror for everyone who installs it later. The guard keeps the
 * lockfile as it was before the run; afterwards each URL the run moved under a mirror gets back the URL the lockfile
 * held for that package, and a new one the person's registry. Edits are spliced in at byte offsets: formatting, other
 * hosts and integrity values (a mirror serves the same tarballs, which is what integrity checks guarantee) stay.
 */

export { NPM_LOCKFILE, YARN_LOCKFILE } from './lockfile-formats.js'
export type { LockfileFormat } from '../types.js'

/** The registry prefix of an npm-style URL: trailing slash, no credentials (those never go into a lockfile). */
function registryPrefix(url: string): string {
  const parsed = new URL(url)
  parsed.username = ''
  parsed.password = ''
  return withTrailingSlash(parsed.href)
}

/** The registries the lockfile of `format` that applies in `cwd` pins, most used first; undefined without one. */
export function readLockedRegistries(format: LockfileFormat, cwd: string): LockedRegistries | undefined {
  const lock = readLockfile(cwd, format.names)
  if (!lock) return undefined
  const counts = new Map<string, number>()
  for (const match of lock.text.matchAll(format.pinnedUrls)) {
    const prefix = registryPrefixOf(match[1]!)
    if (prefix) counts.set(prefix, (counts.get(prefix) ?? 0) + 1)
  }
  const registries = [...counts].map(([prefix, count]) => ({ prefix, count })).sort((a, b) => b.count - a.count)
  return { file: lock.file, registries }
}

/** A URL without its registry prefix (`left-pad/-/left-pad-1.3.0.tgz#sha1`): the same package on any registry. */
function packagePath(url: string): string | undefined {
  const prefix = registryPrefixOf(url)
  if (!prefix) return undefined
  const parsed = new URL(url)
  return parsed.pathname.slice(new URL(prefix).pathname.length) + parsed.search + parsed.hash
}

/** Remembers the lockfile of `format` that applies in `cwd`; `restore` undoes what mirror attempts wrote into it. */
export function guardLockfile(format: LockfileFormat, cwd: string): LockfileGuard {
  const before = readLockfile(cwd, format.names)
  return {
    async restore({ mirrorUrls, primaryUrl }) {
      const after = readLockfile(cwd, format.names)
      const previous = before?.file === after?.file ? before?.text : undefined
      if (!after || after.text === previous) return undefined
      const target = registryPrefix(primaryUrl)
      // Longest first: of `https://host/` and `https://host/npm/`, the URL belongs to the more specific one.
      const prefixes = mirrorUrls.map(registryPrefix).filter(prefix => prefix !== target).sort((a, b) => b.length - a.length)
      // Most runs leave no mirror URL behind: then no parser is loaded at all.
      if (!prefixes.some(prefix => after.text.includes(prefix))) return undefined
      const urls = await format.findUrls(after.text)
      if (!urls) return undefined
      // URLs in the lockfile before the run are the person's, on a mirror or not (a colleague's commit); a package
      // the run moved to a mirror gets its old URL back, never one on another registry.
      const oldUrls = previous === undefined ? [] : await format.findUrls(previous)
      const kept = new Set((oldUrls ?? []).map(old => old.url))
      const oldByPath = new Map((oldUrls ?? []).flatMap(old => { const path = packagePath(old.url); return path ? [[path, old.url] as const] : [] }))
      const edits = urls.flatMap(({ url, start }) => {
        const prefix = prefixes.find(candidate => url.startsWith(candidate))
        if (!prefix || kept.has(url) || (!oldUrls && previous!.includes(url))) return []
        const path = packagePath(url) ?? url.slice(prefix.length)
        return [{ url, start, end: start + url.length, replacement: oldByPath.get(path) ?? `${target}${path}` }]
      })
      if (!edits.length) return undefined
      const text = spliceText(after.text, edits)
      await replaceOwnFile(after.file, text)
      // Counted once per package: lockfileVersion 2 records each URL twice (`packages` and `dependencies`).
      return { file: after.file, replaced: new Set(edits.map(edit => edit.url)).size }
    },
  }
}
