import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config/load.js'
import { redirectingHosts } from '../../../src/config/project-hosts.js'
import { trustFile, trustStoreFile } from '../../../src/config/trust.js'

// A cloned repository's config runs no code and redirects no install without the user's trust.
function repo(files: Record<string, string>) {
  const home = mkdtempSync(join(tmpdir(), 'resilient-trust-'))
  const cwd = join(home, 'repo')
  mkdirSync(join(cwd, '.git'), { recursive: true })
  for (const [name, content] of Object.entries(files)) writeFileSync(join(cwd, name), content)
  const env: NodeJS.ProcessEnv = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), RESILIENT_STATE_DIR: join(home, 'state') }
  return { home, cwd, env }
}

const markerConfig = (marker: string) => `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); module.exports = { maxAttempts: 7 }\n`

describe('a project config that is code', () => {
  it('runs only once trusted, and not again once changed', async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'marker-')), 'ran')
    const { cwd, env } = repo({ 'resilient.config.cjs': markerConfig(marker) })
    const untrusted = await loadConfig({ cwd, env })
    expect(existsSync(marker)).toBe(false)
    expect(untrusted.config.maxAttempts).toBe(4)
    expect(untrusted.notices).toEqual([expect.stringMatching(/resilient\.config\.cjs was not loaded: .*resilient config trust .*resilient\.config\.cjs/)])

    const file = join(cwd, 'resilient.config.cjs')
    await trustFile(file, readFileSync(file), env)
    expect((statSync(trustStoreFile(env)).mode & 0o777).toString(8)).toBe('600')
    expect((await loadConfig({ cwd, env })).config.maxAttempts).toBe(7)
    expect(existsSync(marker)).toBe(true)

    rmSync(marker)
    writeFileSync(file, `${markerConfig(marker)}// a change\n`)
    const changed = await loadConfig({ cwd, env })
    expect(existsSync(marker)).toBe(false)
    expect(changed.config.maxAttempts).toBe(4)
    expect(changed.notices[0]).toMatch(/changed since you trusted it/)
  })

  it('is never loaded for a read-only verb, trusted or not', async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'marker-')), 'ran')
    const { cwd, env } = repo({ '.resilientrc.js': markerConfig(marker) })
    const loaded = await loadConfig({ cwd, env: { ...env, RESILIENT_TRUST_PROJECT_CONFIG: '1' }, project: false })
    expect(existsSync(marker)).toBe(false)
    expect(loaded.notices).toEqual([])
  })

  it('RESILIENT_TRUST_PROJECT_CONFIG=1 trusts the project (CI)', async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'marker-')), 'ran')
    const { cwd, env } = repo({ 'resilient.config.cjs': markerConfig(marker) })
    expect((await loadConfig({ cwd, env: { ...env, RESILIENT_TRUST_PROJECT_CONFIG: '1' } })).config.maxAttempts).toBe(7)
  })
})

describe('a project data config that redirects installs', () => {
  const evil = JSON.stringify({ maxAttempts: 2, pypi: { index: 'https://pypi.attacker.example/simple' } })
  it('is used only once trusted', async () => {
    const { cwd, env } = repo({ '.resilientrc.json': evil })
    const loaded = await loadConfig({ cwd, env })
    expect(loaded.config.pypi).toBeUndefined()
    expect(loaded.config.maxAttempts).toBe(4)
    expect(loaded.notices[0]).toMatch(/was not used: it sends installs to pypi\.attacker\.example/)
    await trustFile(join(cwd, '.resilientrc.json'), evil, env)
    expect((await loadConfig({ cwd, env })).config.pypi?.index).toBe('https://pypi.attacker.example/simple')
  })
  it('needs no trust for catalog mirrors, loopback servers and hosts of the user config', async () => {
    const { cwd, env } = repo({ '.resilientrc.json': JSON.stringify({ pypi: { index: 'https://pypi.corp.example/simple', mirrors: ['tuna', 'http://127.0.0.1:3141/simple'] } }) })
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'resilient'), { recursive: true })
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'resilient', 'config.json'), JSON.stringify({ pypi: { index: 'https://pypi.corp.example/simple' } }))
    const loaded = await loadConfig({ cwd, env })
    expect(loaded.notices).toEqual([])
    expect(loaded.config.pypi?.mirrors).toEqual(['tuna', 'http://127.0.0.1:3141/simple'])
  })
  it('lists hosts outside the catalog, loopback and the user config', () => {
    expect(redirectingHosts({ pypi: { index: 'https://pypi.evil.example/simple', mirrors: ['tuna', 'https://mirrors.aliyun.com/pypi/simple', 'http://127.0.0.1:3141/root/pypi'], custom: { x: 'https://other.example/simple' } } }, undefined))
      .toEqual(['pypi.evil.example', 'other.example'])
  })
})

describe('config under resilient\'s own name, never a generic word another project may use', () => {
  it('ignores another project\'s "mirror" key and .mirrorrc', async () => {
    const { cwd, env } = repo({ 'package.json': JSON.stringify({ name: 'x', mirror: 'https://cdn.example/assets' }), '.mirrorrc': '{ "maxAttempts": 9 }' })
    const loaded = await loadConfig({ cwd, env })
    expect(loaded.config.maxAttempts).toBe(4)
    expect(loaded.notices).toEqual([])
  })
  it('ignores a "resilient" value of another shape, with a debug note only', async () => {
    const { cwd, env } = repo({ 'package.json': JSON.stringify({ name: 'x', resilient: 'yes please' }), '.resilientrc.json': '{ "maxAttempts": 3 }' })
    const loaded = await loadConfig({ cwd, env })
    expect(loaded.config.maxAttempts).toBe(3)
    expect(loaded.notices).toEqual([])
    expect(loaded.debugNotes[0]).toMatch(/"resilient" value is not an object/)
  })
  it('reads package.json "resilient" settings', async () => {
    const { cwd, env } = repo({ 'package.json': JSON.stringify({ name: 'x', resilient: { maxAttempts: 5 } }) })
    expect((await loadConfig({ cwd, env })).config.maxAttempts).toBe(5)
  })
})
