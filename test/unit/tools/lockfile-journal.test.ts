import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { journalPath, recoverLockfile } from '../../../src/tools/lockfile/lockfile-journal.js'
import { YARN_LOCKFILE } from '../../../src/tools/lockfile/lockfile-formats.js'
import { withLockfileRewrite } from '../../../src/tools/lockfile/lockfile-rewrite.js'
import { folderWith } from '../../helpers/tool-cases.js'

const YARNPKG = 'https://registry.yarnpkg.com/'
const MIRROR = 'https://mirror.test/npm/'
const LOCK = `# yarn lockfile v1\n\n\nleft-pad@^1.3.0:\n  version "1.3.0"\n  resolved "${YARNPKG}left-pad/-/left-pad-1.3.0.tgz#5b8a3a7765dfe001261dde915589e782f8c94d1e"\n  integrity sha1-W4o6d2Xf4AEmHd6RVYnngvjJTR4=\n`
const rewrite = (file: string) => ({ file, from: [YARNPKG], to: MIRROR })

/** A project whose mirror attempt is cut short as by a SIGKILL: the rewritten lockfile and the journal stay. */
async function killedDuringTheAttempt(onDisk?: (text: string) => string) {
  const dir = folderWith({ 'yarn.lock': LOCK })
  const lockfile = join(dir, 'yarn.lock')
  let during = ''
  let journalMode = 0
  // The attempt "never ends": its promise is left pending, as a killed run leaves it.
  void withLockfileRewrite(rewrite(lockfile), YARN_LOCKFILE, () => {
    during = readFileSync(lockfile, 'utf8')
    journalMode = statSync(journalPath(lockfile)).mode & 0o777
    if (onDisk) writeFileSync(lockfile, onDisk(during))
    return new Promise(() => {})
  })
  for (let i = 0; i < 100 && !during; i++) await new Promise(resolve => setTimeout(resolve, 10))
  return { dir, lockfile, during, journalMode }
}

describe('a yarn.lock rewritten for a mirror attempt survives a killed run', () => {
  it('the journal is written first, private, and the lockfile points at the mirror during the attempt', async () => {
    const { lockfile, during, journalMode } = await killedDuringTheAttempt()
    expect(during).toContain(`${MIRROR}left-pad/-/left-pad-1.3.0.tgz`)
    expect(journalMode).toBe(0o600)
    expect(existsSync(journalPath(lockfile))).toBe(true)
  })

  it('the next run puts it back byte for byte before anything else, removes the journal and says so', async () => {
    const { dir, lockfile } = await killedDuringTheAttempt()
    const message = await recoverLockfile(YARN_LOCKFILE, dir, () => false)
    expect(readFileSync(lockfile, 'utf8')).toBe(LOCK)
    expect(existsSync(journalPath(lockfile))).toBe(false)
    expect(message).toMatch(/^put yarn\.lock back as it was before a mirror attempt of an earlier run \(process \d+\)/)
  })

  it('when yarn wrote the lockfile meanwhile, only the moved URLs go back', async () => {
    const { dir, lockfile } = await killedDuringTheAttempt(text => `${text}\n# written by yarn\n`)
    await recoverLockfile(YARN_LOCKFILE, dir, () => false)
    expect(readFileSync(lockfile, 'utf8')).toBe(`${LOCK}\n# written by yarn\n`)
  })

  it('leaves alone the journal of a run still going', async () => {
    const { dir, lockfile } = await killedDuringTheAttempt()
    expect(await recoverLockfile(YARN_LOCKFILE, dir, () => true)).toBeUndefined()
    expect(readFileSync(lockfile, 'utf8')).toContain(MIRROR)
  })

  it('an attempt that ends puts it back and leaves no journal', async () => {
    const dir = folderWith({ 'yarn.lock': LOCK })
    const lockfile = join(dir, 'yarn.lock')
    await withLockfileRewrite(rewrite(lockfile), YARN_LOCKFILE, async () => 0)
    expect(readFileSync(lockfile, 'utf8')).toBe(LOCK)
    expect(existsSync(journalPath(lockfile))).toBe(false)
    expect(await recoverLockfile(YARN_LOCKFILE, dir)).toBeUndefined()
  })
})
