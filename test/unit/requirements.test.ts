import { execa } from 'execa'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import { FROM_CI_RUN, verdictFor, type Requirement } from '../helpers/requirements.js'

const go: Requirement = { name: 'go', available: false, installedBy: '.ci/run installs it: apt-get install golang-go' }
const python2: Requirement = { name: 'Python 2.7.18 of pyenv', available: false }
const root = fileURLToPath(new URL('../..', import.meta.url))

describe('verdictFor', () => {
  it('runs when everything is there', () => expect(verdictFor([{ ...go, available: true }], true)).toEqual({ kind: 'run' }))
  it('fails on CI when a tool CI installs is missing, naming it and how CI gets it', () => {
    expect(verdictFor([go], true)).toEqual({ kind: 'fail', reason: 'go is missing; CI must have it (.ci/run installs it: apt-get install golang-go)' })
  })
  it('skips outside CI, saying why', () => expect(verdictFor([go], false)).toMatchObject({ kind: 'skip', reason: expect.stringContaining('go is not available here') }))
  it('skips an optional requirement even on CI', () => expect(verdictFor([python2], true)).toMatchObject({ kind: 'skip' }))
})

describe('a suite of a real tool that is missing', () => {
  // A real vitest run of a file that needs a command no machine has: red under CI=true, skipped (exit 0) without.
  const dir = mkdtempSync(join(root, 'test/unit/requirements-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'missing.test.ts')
  writeFileSync(file, [
    `import { expect } from 'vitest'`,
    `import { describeNeeding } from '${join(root, 'test/helpers/requirements.js')}'`,
    `describeNeeding({ name: 'no-such-tool', available: false, installedBy: '.ci/run installs it' }, 'real no-such-tool', () => {`,
    `  it('works', () => expect(1).toBe(1))`,
    `})`,
  ].join('\n').replace(`import { expect }`, `import { expect, it }`))
  const vitest = (ci: Record<string, string>) => execa('npx', ['vitest', 'run', '--project', 'unit', file], { cwd: root, reject: false, all: true, env: { ...ci }, timeout: 60_000 })

  it('fails under CI=true, naming the tool', async () => {
    const run = await vitest({ CI: 'true' })
    expect(run.exitCode, run.all).toBe(1)
    expect(run.all).toContain('no-such-tool is missing; CI must have it (.ci/run installs it)')
  }, 70_000)

  it('skips with a printed reason outside CI', async () => {
    const run = await vitest({ CI: '' })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.all).toContain('skipping "real no-such-tool": no-such-tool is not available here')
  }, 70_000)
})

describe('every test file that runs a tool .ci/run installs guards it', () => {
  // A file runs the tool when it starts it by name (execa, spawn, an argv table, resilient's CLI given it first) or
  // drives it through a helper of its own (tmux.ts). Guarded: it asks for `command('<tool>')`, which skips outside
  // CI with the reason and fails under CI.
  // The suite above makes and removes a folder of its own under test/unit: not one of the project's.
  const files = () => ['test/e2e', 'test/unit', ...readdirSync(join(root, 'test/unit'), { withFileTypes: true })
    .filter(entry => entry.isDirectory() && !entry.name.startsWith('requirements-')).map(entry => `test/unit/${entry.name}`)]
    .flatMap(dir => readdirSync(join(root, dir)).filter(name => name.endsWith('.test.ts')).map(name => `${dir}/${name}`))
  // An argv table runs its commands in e2e files; in unit files it is data (a planned command).
  const runs = (tool: string, file: string) => new RegExp(`(?:\\b(?:execa|execaSync|spawn|spawnSync|execFile|execFileSync)\\(\\s*|\\b(?:runCli|runWithReport|runScript)\\(\\s*\\[\\s*${file.startsWith('test/e2e') ? '|argv: \\[\\s*' : ''})['"]${tool}['"]${tool === 'tmux' ? `|from '\\.\\./helpers/tmux\\.js'` : ''}`)
  it.each(Object.keys(FROM_CI_RUN))('%s', tool => {
    const unguarded = files().filter(file => {
      const text = readFileSync(join(root, file), 'utf8')
      return runs(tool, file).test(text) && !text.includes(`command('${tool}')`)
    })
    expect(unguarded, `these files run ${tool} without command('${tool}') from test/helpers/requirements.ts`).toEqual([])
  })
})

