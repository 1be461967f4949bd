import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const typings = join(root, 'node_modules/node-pty/typings/node-pty.d.ts')

// src/exec/output/pty-module.ts declares node-pty's API so that type-checking works without it; where node-pty is
// installed, its own typings must fit that declaration, or the declaration has drifted from the real module.
describe.skipIf(!existsSync(typings))('the local node-pty declaration', () => {
  it("matches node-pty's own typings", () => {
    const dir = mkdtempSync(join(tmpdir(), 'resilient-pty-types-'))
    const check = join(dir, 'check.ts')
    writeFileSync(check, [
      `import type { PtyModule } from ${JSON.stringify(join(root, 'src/exec/output/pty-module.js'))}`,
      "declare const real: typeof import('node-pty')",
      'export const fits: PtyModule = real',
    ].join('\n'))
    const tsc = join(root, 'node_modules/typescript/bin/tsc')
    // The typings are an ambient `declare module 'node-pty'`: given to tsc as a file, they answer the import.
    const result = spawnSync(process.execPath, [tsc, '--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node', '--typeRoots', join(root, 'node_modules/@types'), typings, check], { encoding: 'utf8' })
    expect(result.stdout + result.stderr).toBe('')
    expect(result.status).toBe(0)
  })
})
