import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configSchema } from '../../../src/config/schema.js'
import { planAttempt } from '../../../src/plan/attempt.js'
import { orderSources } from '../../../src/plan/sources.js'
import type { Source } from '../../../src/plan/types.js'
import { TOOLS } from '../../../src/tools/index.js'
import { pip } from '../../../src/tools/pip.js'
import type { ToolAdapter } from '../../../src/tools/types.js'

// A saved mirror password and a typed token reach the tool through its environment or a 0600 file in the
// run's private directory, never its command line (/proc/<pid>/cmdline is world-readable).
const MIRROR = 'https://corp:s3cr3t-pw@mirror.corp.test/path/'
const home = mkdtempSync(join(tmpdir(), 'cred-home-'))
writeFileSync(join(home, '.netrc'), 'machine other.test login me password mine\n')
writeFileSync(join(home, '.npmrc'), 'fund=false\n')
const secrets = { scratch: { path: mkdtempSync(join(tmpdir(), 'scratch-')) }, env: { HOME: home } }

function attempt(adapter: ToolAdapter, args: string[], url = MIRROR) {
  const source: Source = { id: 'corp', url, kind: 'mirror', label: 'mirror corp' }
  const base = { argv: [adapter.name, ...args], env: {} }
  return planAttempt({ adapter, config: configSchema.parse({}), cwd: home, base, replaceable: () => false, secrets }, { source, reason: 'test' }).command
}

describe('credentials never on argv', () => {
  it('pip: a netrc with the user\'s own entries, given as NETRC', () => {
    const command = attempt(pip, ['install', 'x'])
    expect(command.argv.join(' ')).not.toContain('s3cr3t-pw')
    expect(command.argv).toContain('https://mirror.corp.test/path/')
    expect(command.env.NETRC).toBe(command.files![0]!.path)
    expect(command.files![0]!.path.startsWith(secrets.scratch.path)).toBe(true)
    expect(command.files![0]!.content).toBe('machine other.test login me password mine\nmachine mirror.corp.test login corp password s3cr3t-pw\n')
  })
  it.each(['npm', 'pnpm'] as const)('%s: an npmrc with //host/path/:_auth, given as npm_config_userconfig', tool => {
    const command = attempt(TOOLS[tool], ['install', 'x'])
    expect(command.argv.join(' ')).not.toContain('s3cr3t-pw')
    expect(command.env.npm_config_userconfig).toBe(command.files![0]!.path)
    expect(command.files![0]!.content).toBe(`fund=false\n//mirror.corp.test/path/:_auth=${Buffer.from('corp:s3cr3t-pw').toString('base64')}\n`)
  })
  it('a typed token goes into a netrc too', () => {
    const command = pip.personFixes!.withCredentials!({ argv: ['pip', 'install', 'x'], env: {} }, 'https://pypi.corp.test/simple', '__token__', 'pypi-typed-token-123', secrets)
    expect(command.argv).toEqual(['pip', 'install', 'x'])
    expect(command.files![0]!.content).toContain('machine pypi.corp.test login __token__ password pypi-typed-token-123')
  })
  it('tools that take the URL in their environment keep it there (uv)', () => {
    const command = attempt(TOOLS.uv, ['pip', 'install', 'x'])
    expect(command.argv.join(' ')).not.toContain('s3cr3t-pw')
    expect(Object.values(command.env).join(' ')).toContain('s3cr3t-pw')
  })
  it.each(['yarn', 'bun', 'cargo', 'micromamba'] as const)('%s, with no other way, skips a mirror that needs credentials and says why', tool => {
    const { sources, warnings } = orderSources({ adapter: TOOLS[tool], config: configSchema.parse({ [TOOLS[tool].ecosystem]: { mirrors: [MIRROR] } }), userIndex: null })
    expect(sources).toHaveLength(1)
    expect(warnings[0]).toMatch(/needs credentials, which .* can only take on its command line/)
    expect(warnings[0]).not.toContain('s3cr3t-pw')
  })
  it('a config mirror or index that is not http(s) is refused by the schema (javascript:)', () => {
    expect(configSchema.safeParse({ pypi: { mirrors: ['javascript:alert(1)'] } }).success).toBe(false)
    expect(configSchema.safeParse({ npm: { index: 'javascript:alert(1)' } }).success).toBe(false)
    expect(configSchema.safeParse({ npm: { custom: { x: 'data:text/html,hi' } } }).success).toBe(false)
    expect(configSchema.safeParse({ pypi: { mirrors: ['tuna', 'https://m.example/simple'], index: 'file:///srv/simple' } }).success).toBe(true)
  })
  it('the plain-http check ignores case (HTTP://)', () => {
    const { sources, warnings } = orderSources({ adapter: pip, config: configSchema.parse({ pypi: { mirrors: ['HTTP://plain.example/simple'] } }), userIndex: null })
    expect(sources).toHaveLength(1)
    expect(warnings.join('\n')).toMatch(/plain\.example uses plain http/)
  })

})
