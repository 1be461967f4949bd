import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, delimiter, dirname, join } from 'node:path'

/**
 * One temporary folder for the whole test run, removed at its end: every test, and every tool it starts (pip, npm,
 * resilient itself), makes its temporary files under it through TMPDIR, which the workers and their children
 * inherit. Without it, a run left some 20,000 folders (tens of GB with the bench's wheels) in /tmp.
 */
export default function setup(): () => void {
  // Each project runs this (vitest.config.ts has three), and so does a vitest that a test starts: the first makes
  // the folder, the others find themselves in it.
  if (basename(tmpdir()).startsWith('resilient-tests-')) return () => {}
  const previous = { TMPDIR: process.env.TMPDIR, PATH: process.env.PATH }
  const dir = mkdtempSync(join(tmpdir(), 'resilient-tests-'))
  // Tests that play another local user need to reach a folder made for them inside: it can be crossed, not listed.
  chmodSync(dir, 0o711)
  process.env.TMPDIR = dir
  process.env.PATH = pythonBeforeShims(process.env.PATH ?? '')
  return () => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  }
}

/**
 * PATH with the bin folder of the Python that pyenv's shims pick put first, as activating it would (`pyenv shell`,
 * a venv, CI's setup-python): the same python3 and pip, started directly. A pyenv shim is a bash script that runs
 * `pyenv exec` (and, for pip, a rehash hook) on every start: measured here, 0.4 to 0.8 s of CPU on each python3 or
 * pip, a quarter of the CPU of the pip tests, which a loaded 2-core machine cannot spare. resilient's handling of a
 * shim in front of pip is tested with shims the tests make (test/e2e/safety-source-pip.e2e.test.ts). Unchanged
 * without pyenv's shims on PATH.
 */
function pythonBeforeShims(path: string): string {
  const entries = path.split(delimiter)
  if (!entries.some(entry => /[\\/]\.?pyenv[\\/]shims$/.test(entry))) return path
  let python: string
  try {
    python = execFileSync('pyenv', ['which', 'python3'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000 }).trim()
  } catch {
    return path
  }
  return python ? [dirname(python), ...entries].join(delimiter) : path
}
