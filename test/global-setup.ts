import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * One temporary folder for the whole test run, removed at its end: every test, and every tool it starts (pip, npm,
 * resilient itself), makes its temporary files under it through TMPDIR, which the workers and their children
 * inherit. Without it, a run left some 20,000 folders (tens of GB with the bench's wheels) in /tmp.
 */
export default function setup(): () => void {
  const previous = process.env.TMPDIR
  const dir = mkdtempSync(join(tmpdir(), 'resilient-tests-'))
  // Tests that play another local user need to reach a folder made for them inside: it can be crossed, not listed.
  chmodSync(dir, 0o711)
  process.env.TMPDIR = dir
  return () => {
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  }
}
