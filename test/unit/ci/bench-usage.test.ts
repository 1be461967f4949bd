import { execa } from 'execa'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../..', import.meta.url))

describe('npm run bench -- --help', () => {
  it('prints the usage and exits 0 before loading or measuring anything', async () => {
    const started = Date.now()
    const result = await execa('node', ['bench/run.mjs', '--help'], { cwd: root, reject: false })
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(/^Usage: npm run bench -- \[--quick\] \[--json\] \[--write\] \[--only=startup\|perf\|streams\|matrix\|relay\|registry\]/)
    expect(result.stderr).toBe('')
    // A measurement starts servers and runs pip for seconds at least.
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('refuses an unknown option with the usage (exit 64)', async () => {
    const result = await execa('node', ['bench/run.mjs', '--qiuck'], { cwd: root, reject: false })
    expect(result.exitCode).toBe(64)
    expect(result.stderr).toMatch(/unknown option --qiuck[\s\S]*Usage:/)
  })
})

describe('.gitignore', () => {
  it('ignores the tarball npm pack writes', () => expect(readFileSync(`${root}/.gitignore`, 'utf8').split('\n')).toContain('*.tgz'))
})
