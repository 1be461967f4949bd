import { readFile } from 'node:fs/promises'
import { replaceOwnFile } from '../files/locked-file.js'
import type { LockfileRewrite } from '../plan/types.js'
import { spliceText } from './splice-text.js'
import { registryPrefixOf } from '../url.js'
import type { LockfileFormat } from './types.js'

/**
 * yarn 1 downloads a locked package from its `resolved` URL whatever --registry says (yarnpkg/yarn#3330). For one
 * attempt on a mirror the URLs of the replaceable registries (LockfileRewrite.from) point at the mirror, and are put
 * back as soon as the attempt ends, however it ends (success, failure, Ctrl-C: the child is gone before `run`
 * returns): byte for byte when the tool wrote nothing, each moved URL back to its old one when it did.
 */
export async function withLockfileRewrite<T>(rewrite: LockfileRewrite | undefined, format: LockfileFormat | undefined, run: () => Promise<T>): Promise<T> {
  const original = rewrite && format ? await readFile(rewrite.file).catch(() => undefined) : undefined
  const urls = original && await format!.findUrls(original.toString('utf8'))
  const moved = new Map<string, string>()
  const edits = (urls ?? []).flatMap(({ url, start }) => {
    // The URL's own registry, path and all: a private registry under another path of the same host stays untouched.
    const from = rewrite!.from.find(prefix => url.startsWith(prefix) && registryPrefixOf(url) === prefix)
    if (!from) return []
    const replacement = `${rewrite!.to}${url.slice(from.length)}`
    moved.set(replacement, url)
    return [{ start, end: start + url.length, replacement }]
  })
  if (!original || !edits.length) return run()
  const rewritten = spliceText(original.toString('utf8'), edits)
  await replaceOwnFile(rewrite!.file, rewritten)
  try {
    return await run()
  } finally {
    const after = await readFile(rewrite!.file).catch(() => undefined)
    if (!after || after.equals(Buffer.from(rewritten, 'utf8'))) await replaceOwnFile(rewrite!.file, original)
    else {
      const text = after.toString('utf8')
      const back = ((await format!.findUrls(text)) ?? []).flatMap(({ url, start }) => moved.has(url) ? [{ start, end: start + url.length, replacement: moved.get(url)! }] : [])
      if (back.length) await replaceOwnFile(rewrite!.file, spliceText(text, back))
    }
  }
}
