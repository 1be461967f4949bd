import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CATEGORIES } from '../../../src/diagnose/types.js'
import { EXIT } from '../../../src/errors.js'

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8')

describe('docs stay true to the code', () => {
  it('troubleshooting has one section per diagnosis category, in order, each answering the three questions', () => {
    const text = read('docs/troubleshooting.md')
    const headings = [...text.matchAll(/^## (\S+)$/gm)].map(match => match[1])
    expect(headings).toEqual([...CATEGORIES])
    for (const section of text.split(/^## /m).slice(1)) {
      expect(section).toContain('**What it means.**')
      expect(section).toContain('**What resilient does.**')
      expect(section).toContain('**What you can do.**')
    }
  })

  it('exit codes lists every code resilient itself uses', () => {
    const text = read('docs/exit-codes.md')
    for (const code of [...Object.values(EXIT), 70, 129]) expect(text).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'))
  })

  it('the CI page has a GitHub Actions and a GitLab CI example', () => {
    const text = read('docs/ci.md')
    expect(text).toMatch(/```yaml\njobs:[\s\S]*runs-on:[\s\S]*resilient shim install[\s\S]*?```/)
    expect(text).toMatch(/```yaml\ntest:\n {2}image:[\s\S]*script:[\s\S]*?```/)
  })

  it('the README\'s uninstall block removes the shims before resilient (the other order leaves them on PATH)', () => {
    const section = read('README.md').split('## Uninstall')[1]!.split('\n## ')[0]!
    const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!
    const shims = block.indexOf('resilient shim uninstall')
    expect(shims).toBeGreaterThanOrEqual(0)
    expect(shims).toBeLessThan(block.indexOf('npm uninstall --global resilient-install'))
  })

  it('the README commands table has a row for each shell command', () => {
    const table = read('README.md').split('<!-- commands:start -->')[1]!.split('<!-- commands:end -->')[0]!
    for (const command of ['doctor', 'shim install', 'shim uninstall', 'init', 'logs', 'completion', 'help']) expect(table).toContain(`| \`resilient ${command}`)
  })
})
