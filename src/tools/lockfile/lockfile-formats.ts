import type { Node } from 'jsonc-parser'
import type { LockfileFormat } from '../types.js'

/** package-lock.json and npm-shrinkwrap.json, lockfileVersion 1, 2 and 3. */
export const NPM_LOCKFILE: LockfileFormat = {
  // npm writes the shrinkwrap when there is one (docs/content/configuring-npm/npm-shrinkwrap-json.md).
  names: ['npm-shrinkwrap.json', 'package-lock.json'],
  pinnedUrls: /"resolved":\s*"(https?:\/\/[^"]+)"/g,
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
  pinnedUrls: /^ {2}resolved "?(https?:\/\/[^"\s]+)/gm,
  async findUrls(text) {
    // A berry lockfile has `resolution:` fields and no URLs to restore.
    if (text.includes('\n__metadata:')) return undefined
    return [...text.matchAll(/^ {2}resolved (?:"([^"\\\r\n]+)"|([^\s"]+))\r?$/dgm)].map(match => {
      const group = match[1] === undefined ? 2 : 1
      return { url: match[group]!, start: match.indices![group]![0] }
    })
  },
}
