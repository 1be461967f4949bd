import { execa } from 'execa'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

// node-pty is optional and has no Linux prebuilds: on a machine without a compiler or Node's headers npm drops it.
// This copy of the project has every dependency but node-pty (as such a machine has), and must still type-check
// and run its terminal tests as skips that say why. .ci/run does the same from a clean clone and a real `npm ci`.
const root = fileURLToPath(new URL('../../', import.meta.url))
let copy: string

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'resilient-no-pty-'))
  for (const entry of ['src', 'test', 'bench', 'scripts', 'bin', 'package.json', 'tsconfig.json', 'rollup.config.mjs', 'vitest.config.ts']) {
    cpSync(join(root, entry), join(copy, entry), { recursive: true })
  }
  symlinkSync(join(root, 'dist'), join(copy, 'dist'))
  mkdirSync(join(copy, 'node_modules'))
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (name !== 'node-pty') symlinkSync(join(root, 'node_modules', name), join(copy, 'node_modules', name))
  }
})

describe('a machine where node-pty could not be built', () => {
  it('type-checks (tsc --noEmit) without node-pty', async () => {
    const result = await execa(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit'], { cwd: copy, reject: false, all: true })
    expect(result.all).toBe('')
    expect(result.exitCode).toBe(0)
  }, 180_000)

  it('skips the terminal tests and says why, and runs the others', async () => {
    const result = await execa(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'test/e2e/signals.e2e.test.ts'], { cwd: copy, reject: false, all: true, env: { NO_COLOR: '1' } })
    expect(result.exitCode, result.all).toBe(0)
    expect(result.all).toMatch(/skipping the terminal tests of this file: node-pty is not usable here \(Cannot find module 'node-pty'/)
    expect(result.all).toMatch(/Tests\s+2 passed \| 2 skipped/)
  }, 180_000)
})
