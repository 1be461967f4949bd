import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { TOOLS } from '../../src/tools/index.js'
import type { ToolAdapter } from '../../src/tools/types.js'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { command, itNeeding, type Requirement } from '../helpers/requirements.js'

// Each adapter's offline form (ToolAdapter.offline), checked against the real tool installed here: its help lists the
// flags, or the setting exists and takes effect. uv, conda, mamba, micromamba and pixi are replayed fakes here.
const root = (path: string) => join(import.meta.dirname, '..', '..', path)
const bin = (name: string) => root(`node_modules/.bin/${name}`)
const words = (adapter: ToolAdapter) => [...adapter.offline!.args, ...(adapter.offline!.wheelhouse ? [adapter.offline!.wheelhouse.flag] : [])]

function goModule(): string {
  const dir = mkdtempSync(join(tmpdir(), 'offline-go-'))
  writeFileSync(join(dir, 'go.mod'), 'module example.test/offline\n\ngo 1.19\n')
  return dir
}

/**
 * What to run so that the real tool shows it knows the offline form, and what its output must then contain; `needs`:
 * a tool .ci/run installs, absent on some machines (the check is then skipped outside CI, with the reason).
 */
const CHECKS: Record<string, { argv: string[]; expect: (adapter: ToolAdapter) => string[]; cwd?: () => string; needs?: Requirement }> = {
  pip: { argv: ['python3', '-m', 'pip', 'install', '--help'], expect: words },
  npm: { argv: ['npm', 'config', 'ls', '-l'], expect: () => ['offline = false'] },
  pnpm: { argv: [bin('pnpm'), 'install', '--help'], expect: words },
  yarn: { argv: ['node', root('node_modules/yarn/bin/yarn.js'), 'install', '--help'], expect: words },
  bun: { argv: [bin('bun'), 'install', '--help'], expect: words },
  cargo: { argv: ['cargo', 'fetch', '--help'], expect: words, needs: command('cargo') },
  // The variable is Yarn's enableOfflineMode setting: with it, `config get` says true.
  'yarn-berry': { argv: ['node', root('node_modules/@yarnpkg/cli-dist/bin/yarn.js'), 'config', 'get', 'enableOfflineMode'], expect: () => ['true'] },
  go: { argv: ['go', 'mod', 'download', '-json', 'example.com/nothing@v1.0.0'], expect: () => ['module lookup disabled by GOPROXY=off'], cwd: goModule, needs: command('go') },
}

describe('offline forms, against the real tools', () => {
  const withForm = (Object.values(TOOLS) as ToolAdapter[]).filter(adapter => adapter.offline && adapter.verified === 'real')

  it('has a check for every real tool with an offline form', () => expect(withForm.filter(adapter => !CHECKS[adapter.name]).map(adapter => adapter.name)).toEqual([]))

  for (const adapter of withForm.filter(each => CHECKS[each.name])) itNeeding(CHECKS[adapter.name]!.needs ?? [], adapter.name, async () => {
    const name = adapter.name
    const check = CHECKS[name]
    const env = isolatedEnv({ ...adapter.offline!.env, GOPATH: mkdtempSync(join(tmpdir(), 'offline-gopath-')), GOFLAGS: '' })
    const result = await execa(check!.argv[0]!, check!.argv.slice(1), { env, extendEnv: false, reject: false, cwd: check!.cwd?.() ?? tmpdir(), timeout: 60_000, stdin: 'ignore', all: true })
    for (const word of check!.expect(adapter)) expect(result.all, `${name}: ${check!.argv.join(' ')}`).toContain(word)
  }, 90_000)

  it('the real tools without one say so: poetry, pdm and pipx have no offline flag', () => {
    expect((Object.values(TOOLS) as ToolAdapter[]).filter(adapter => !adapter.offline).map(adapter => adapter.name).sort()).toEqual(['pdm', 'pipx', 'poetry'])
  })
})
