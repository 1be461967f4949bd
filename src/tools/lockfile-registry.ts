import type { Node } from 'jsonc-parser'
import { readLockfile } from './locked-registries.js'
import { withTrailingSlash } from './npm-family.js'
import type { LockfileGuard } from './types.js'

/**
 * npm and yarn 1 write the tarball URL of every package they newly resolve into the lockfile, so an install that
 * succeeded on a mirror would pin the project to that mirror for everyone who installs it later. The guard keeps the
 * lockfile as it was before the run; afterwards exactly the URLs the run added under the mirror get the person's
 * registry prefix instead. Edits are spliced in at byte offsets: formatting, other hosts and integrity values (a
 * mirror serves the same tarballs, which is what integrity checks guarantee) stay as they were.
 */

/** One `resolved` URL in a lockfile: `start` is the offset of its first character in the text. */
export interface LockedUrl {
  url: string
  start: number
}

/** Where a lockfile format lives and how to find its `resolved` URLs. */
export interface LockfileFormat {
  /** File names in order of precedence, looked for in the current folder and then its parents. */
  names: readonly string[]
  /** Every `resolved` URL; undefined when the text is not this format (a merge conflict): nothing is touched then. */
  findUrls(text: string): Promise<LockedUrl[] | undefined>
}

/** package-lock.json and npm-shrinkwrap.json, lockfileVersion 1, 2 and 3. */
export const NPM_LOCKFILE: LockfileFormat = {
  // npm writes the shrinkwrap when there is one (docs/content/configuring-npm/npm-shrinkwrap-json.md).
  names: ['npm-shrinkwrap.json', 'package-lock.json'],
  async findUrls(text) {
    const { findNodeAtLocation, parseTree } = await import('jsonc-parser')
    const errors: unknown[] = []
    const root = parseTree(text, errors as never, { disallowComments: true, allowTrailingComma: false })
    if (!root || errors.length || root.type !== 'object') return undefined
    const values = (node: Node | undefined) => node?.type === 'object' ? node.children!.flatMap(property => property.children?.[1] ?? []) : []
    const found: (Node | undefined)[] = []
    // Versions 2 and 3: one flat entry per install path (`node_modules/a/node_modules/b`).
    for (const entry of values(findNodeAtLocation(root, ['packages']))) found.push(findNodeAtLocation(entry, ['resolved']))
    // Versions 1 and 2: a tree, each entry's own `dependencies` nested inside it.
    const walk = (dependencies: Node | undefined): void => {
      for (const entry of values(dependencies)) {
        found.push(findNodeAtLocation(entry, ['resolved']))
        walk(findNodeAtLocation(entry, ['dependencies']))
      }
    }
    walk(findNodeAtLocation(root, ['dependencies']))
    // The literal without its quotes; one with escapes is not how npm writes a URL, and is left alone.
    return found.flatMap(node => node?.type === 'string' && text.slice(node.offset + 1, node.offset + node.length - 1) === node.value
      ? [{ url: node.value as string, start: node.offset + 1 }] : [])
  },
}

/** yarn.lock of yarn 1: an entry's fields are indented two spaces (its dependencies four, so a package named `resolved` is not one). */
export const YARN_LOCKFILE: LockfileFormat = {
  names: ['yarn.lock'],
  async findUrls(text) {
    // A berry lockfile has `resolution:` fields and no URLs to restore.
    if (text.includes('\n__metadata:')) return undefined
    return [...text.matchAll(/^ {2}resolved (?:"([^"\\\r\n]+)"|([^\s"]+))\r?$/dgm)].map(match => {
      const group = match[1] === undefined ? 2 : 1
      return { url: match[group]!, start: match.indices![group]![0] }
    })
  },
}

/** The registry prefix of an npm-style URL: trailing slash, no credentials (those never go into a lockfile). */
function registryPrefix(url: string): string {
  const parsed = new URL(url)
  parsed.username = ''
  parsed.password = ''
  return withTrailingSlash(parsed.href)
}

/** Remembers the lockfile of `format` that applies in `cwd`; `restore` undoes what mirror attempts added to it. */
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
      // URLs in the lockfile before the run are the person's, on a mirror or not (a colleague's commit).
      const oldUrls = previous === undefined ? [] : await format.findUrls(previous)
      const keptUrls = oldUrls && new Set(oldUrls.map(old => old.url))
      const kept = (url: string) => keptUrls ? keptUrls.has(url) : previous!.includes(url)
      const edits = urls.flatMap(({ url, start }) => {
        const prefix = prefixes.find(candidate => url.startsWith(candidate))
        return prefix && !kept(url) ? [{ url, start, end: start + prefix.length }] : []
      })
      if (!edits.length) return undefined
      const pieces: string[] = []
      let copied = 0
      for (const { start, end } of edits.sort((a, b) => a.start - b.start)) {
        pieces.push(after.text.slice(copied, start), target)
        copied = end
      }
      const text = pieces.join('') + after.text.slice(copied)
      // Temp file + rename: a reader never sees half a lockfile; the file's mode is kept.
      const { default: writeFileAtomic } = await import('write-file-atomic')
      await writeFileAtomic(after.file, text, { encoding: 'utf8' })
      // Counted once per package: lockfileVersion 2 records each URL twice (`packages` and `dependencies`).
      return { file: after.file, replaced: new Set(edits.map(edit => edit.url)).size }
    },
  }
}
