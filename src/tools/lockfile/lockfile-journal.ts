import { createHash } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { replaceOwnFile } from '../../files/locked-file.js'
import { isRunning, writeNewFile } from '../../files/private-files.js'
import { findUp } from './locked-registries.js'
import { spliceText } from '../argv/splice-text.js'
import type { LockfileFormat } from '../types.js'

/**
 * What it takes to put a lockfile back after an attempt rewrote it (yarn 1 on a mirror, src/tools/lockfile/lockfile-rewrite.ts),
 * written beside it before the rewrite, so that a run killed during the attempt (SIGKILL, a power cut) is undone by
 * the next run, before anything else. Created exclusively without following a link, 0600; removed once restored.
 */
export interface LockfileJournal {
  /** The run that wrote it: a journal of a run still alive is that run's, never touched. */
  pid: number
  /** The lockfile's bytes before the rewrite (base64). */
  original: string
  /** sha256 of the rewritten lockfile: unchanged since, the original goes back byte for byte. */
  rewritten: string
  /** Each URL the rewrite wrote, and the one it replaced: what goes back when the tool wrote the file meanwhile. */
  moved: [string, string][]
}

export function journalPath(lockfile: string): string {
  return join(dirname(lockfile), `.${basename(lockfile)}.resilient-journal`)
}

export const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex')

export function writeJournal(lockfile: string, journal: LockfileJournal): void {
  writeNewFile(journalPath(lockfile), `${JSON.stringify(journal)}\n`)
}

/**
 * Puts the lockfile back as the journal says: byte for byte when the tool wrote nothing, each moved URL back to its
 * old one when it did. Then removes the journal.
 */
export async function restoreFromJournal(lockfile: string, format: LockfileFormat, journal: LockfileJournal): Promise<void> {
  const after = await readFile(lockfile).catch(() => undefined)
  if (!after || sha256(after) === journal.rewritten) await replaceOwnFile(lockfile, Buffer.from(journal.original, 'base64'))
  else {
    const text = after.toString('utf8')
    const moved = new Map(journal.moved)
    const back = ((await format.findUrls(text)) ?? []).flatMap(({ url, start }) => moved.has(url) ? [{ start, end: start + url.length, replacement: moved.get(url)! }] : [])
    if (back.length) await replaceOwnFile(lockfile, spliceText(text, back))
  }
  rmSync(journalPath(lockfile), { force: true })
}

/**
 * Before a run of a tool whose lockfile an attempt may rewrite: a journal left by a run that was killed during such an
 * attempt puts the lockfile back first. Returns what to tell the person, or undefined when there was nothing to do.
 */
export async function recoverLockfile(format: LockfileFormat, cwd: string, running: (pid: number) => boolean = isRunning): Promise<string | undefined> {
  const lockfile = findUp(cwd, format.names)
  if (!lockfile) return undefined
  let journal: LockfileJournal
  try {
    journal = JSON.parse(readFileSync(journalPath(lockfile), 'utf8')) as LockfileJournal
  } catch {
    return undefined
  }
  if (running(journal.pid)) return undefined
  await restoreFromJournal(lockfile, format, journal)
  return `put ${basename(lockfile)} back as it was before a mirror attempt of an earlier run (process ${journal.pid}) that was stopped before it could (${journalPath(lockfile)})`
}
