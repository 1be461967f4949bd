import { readFile } from 'node:fs/promises'
import { replaceOwnFile } from '../../files/locked-file.js'
import { restoreFromJournal, sha256, writeJournal, type LockfileJournal } from './lockfile-journal.js'
import { spliceText } from '../argv/splice-text.js'
import { registryPrefixOf } from '../../url.js'
import type { LockfileFormat, LockfileRewrite } from './lockfile-types.js'

/**
 * yarn 1 downloads a locked package from its `resolved` URL whatever --registry says (yarnpkg/yarn#3330). For one
 * attempt on a mirror the URLs of the replaceable registries (LockfileRewrite.from) point at the mirror, and are put
 * back as soon as the attempt ends, however it ends (success, failure, Ctrl-C: the child is gone before `run`
 * returns): byte for byte when the tool wrote nothing, each moved URL back to its old one when it did. A journal
 * beside the lockfile, written first, lets the next run do the same when this one is killed during the attempt.
 */
export async function withLockfileRewrite<T>(rewrite: LockfileRewrite | undefined, format: LockfileFormat | undefined, run: () => Promise<T>): Promise<T> {
  const original = rewrite && format ? await readFile(rewrite.file).catch(() => undefined) : undefined
  const urls = original && await format!.findUrls(original.toString('utf8'))
  const moved: [string, string][] = []
  const edits = (urls ?? []).flatMap(({ url, start }) => {
    // The URL's own registry, path and all: a private registry under another path of the same host stays untouched.
    const from = rewrite!.from.find(prefix => url.startsWith(prefix) && registryPrefixOf(url) === prefix)
    if (!from) return []
    const replacement = `${rewrite!.to}${url.slice(from.length)}`
    moved.push([replacement, url])
    return [{ start, end: start + url.length, replacement }]
  })
  if (!original || !edits.length) return run()
  const rewritten = spliceText(original.toString('utf8'), edits)
  const journal: LockfileJournal = { pid: process.pid, original: original.toString('base64'), rewritten: sha256(rewritten), moved }
  writeJournal(rewrite!.file, journal)
  await replaceOwnFile(rewrite!.file, rewritten)
  try {
    return await run()
  } finally {
    await restoreFromJournal(rewrite!.file, format!, journal)
  }
}
