import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config/load.js'
import { ConfigError } from '../../../src/errors.js'

/** A temporary HOME with a user config, and a project directory (a repository root) inside it. */
function layout(user?: unknown, project?: { file: string; content: string }) {
  const home = mkdtempSync(join(tmpdir(), 'resilient-load-'))
  const env: NodeJS.ProcessEnv = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') }
  if (user !== undefined) {
    mkdirSync(join(home, '.config', 'resilient'), { recursive: true })
    writeFileSync(join(home, '.config', 'resilient', 'config.json'), typeof user === 'string' ? user : JSON.stringify(user))
  }
  const cwd = join(home, 'work', 'repo')
  mkdirSync(join(cwd, '.git'), { recursive: true })
  if (project) writeFileSync(join(cwd, project.file), project.content)
  return { home, env, cwd, userFile: join(home, '.config', 'resilient', 'config.json') }
}

describe('loadConfig', () => {
  it('gives the schema defaults, each from "default"', async () => {
    const { env, cwd } = layout()
    const { config, origins, files } = await loadConfig({ cwd, env })
    expect(config.maxAttempts).toBe(4)
    expect(config.breaker).toEqual({ failureThreshold: 3, cooldownSeconds: 300 })
    expect(config.offline).toBe(false)
    expect(origins['breaker.failureThreshold']).toBe('default')
    expect(files).toEqual([])
  })

  it('layers user < project < RESILIENT_* < flags, and says where each value came from', async () => {
    const { env, cwd, userFile } = layout(
      { maxAttempts: 5, maxWaitSeconds: 9, breaker: { cooldownSeconds: 10 }, pypi: { mirrors: ['tuna'] } },
      { file: '.resilientrc.yaml', content: 'maxAttempts: 6\nbreaker:\n  failureThreshold: 2\npypi:\n  index: https://pypi.org/simple\n' })
    env.RESILIENT_MAX_ATTEMPTS = '7'
    env.RESILIENT_OFFLINE = 'yes'
    env.RESILIENT_NPM_MIRRORS = 'npmmirror, tencent'
    const { config, origins, files } = await loadConfig({ cwd, env, flags: { maxAttempts: 8, mirrors: false } })
    const project = join(cwd, '.resilientrc.yaml')
    expect(files).toEqual([userFile, project])
    expect(config).toMatchObject({ maxAttempts: 8, maxWaitSeconds: 9, offline: true, mirrors: false,
      breaker: { failureThreshold: 2, cooldownSeconds: 10 }, pypi: { index: 'https://pypi.org/simple', mirrors: ['tuna'] }, npm: { mirrors: ['npmmirror', 'tencent'] } })
    expect(origins).toMatchObject({ maxAttempts: '--max-attempts', mirrors: '--no-mirrors', offline: 'RESILIENT_OFFLINE', maxWaitSeconds: userFile,
      'breaker.failureThreshold': project, 'breaker.cooldownSeconds': userFile, 'pypi.index': project, 'pypi.mirrors': userFile,
      'npm.mirrors': 'RESILIENT_NPM_MIRRORS', maxTotalSeconds: 'default' })
  })

  it('finds the project config in a parent directory, up to the repository root', async () => {
    const { env, cwd } = layout(undefined, { file: '.resilientrc', content: '{ "maxAttempts": 2 }' })
    const deep = join(cwd, 'src', 'pkg')
    mkdirSync(deep, { recursive: true })
    expect((await loadConfig({ cwd: deep, env })).config.maxAttempts).toBe(2)
  })

  it('does not look above the repository root', async () => {
    const { env, cwd } = layout()
    writeFileSync(join(cwd, '..', '.resilientrc.json'), '{ "maxAttempts": 2 }')
    expect((await loadConfig({ cwd, env })).config.maxAttempts).toBe(4)
  })

  it('never reads a config from a world-writable directory (such as /tmp)', async () => {
    const { env, home } = layout()
    const shared = join(home, 'shared')
    mkdirSync(shared)
    writeFileSync(join(shared, '.resilientrc.json'), '{ "pypi": { "index": "https://evil.example/simple" } }')
    chmodSync(shared, 0o777)
    expect((await loadConfig({ cwd: shared, env })).config.pypi).toBeUndefined()
  })

  it.each([
    ['a bad value in the user config', { user: { maxAttempts: 0 } }, /config\.json: invalid value for "maxAttempts": Too small: expected number to be >=1\./],
    ['a value of the wrong type, in words', { user: { stall: { windowSeconds: 'long' } } }, /invalid value for "stall\.windowSeconds": Invalid input: expected number, received string\./],
    ['an unknown key in the project config', { project: '{ "breaker": { "threshold": 2 } }' }, /\.resilientrc\.json: invalid value for "breaker": unknown key "threshold"/],
    ['a misspelt key, with the likely one', { project: '{ "maxAtempts": 3 }' }, /unknown key "maxAtempts" \(did you mean "maxAttempts"\?\)/],
    ['a misspelt nested key', { project: '{ "pypi": { "mirors": [] } }' }, /invalid value for "pypi": unknown key "mirors" \(did you mean "mirrors"\?\)/],
    ['a project config that is not JSON, with the line and column', { project: '{' }, /\.resilientrc\.json:1:2: not valid JSON \(line 1, column 2: close brace expected\)/],
    ['a user config that is not JSON', { user: '{ maxAttempts: 3' }, /config\.json:1:3: not valid JSON/],
    ['a bad RESILIENT_* value', { env: { RESILIENT_BREAKER_COOLDOWN_SECONDS: 'soon' } }, /RESILIENT_BREAKER_COOLDOWN_SECONDS: invalid value for "breaker\.cooldownSeconds"/],
  ])('stops with a ConfigError (exit 78) naming the place for %s', async (_, setup, message) => {
    const { env, cwd } = layout((setup as { user?: unknown }).user, (setup as { project?: string }).project ? { file: '.resilientrc.json', content: (setup as { project: string }).project } : undefined)
    Object.assign(env, (setup as { env?: object }).env)
    const error = await loadConfig({ cwd, env }).catch(caught => caught)
    expect(error).toBeInstanceOf(ConfigError)
    expect(error.exitCode).toBe(78)
    expect(error.message).toMatch(message)
  })
})

describe('a config file that is not valid JSON', () => {
  it('is named with the line and column of its first error (exit 78)', async () => {
    const { env, cwd, userFile } = layout('{\n  "maxAttempts": 3,\n  "pypi": { "mirrors": ["tuna",] }\n}\n')
    const error = await loadConfig({ cwd, env }).catch(thrown => thrown as ConfigError)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).message).toBe(`${userFile}:3:32: not valid JSON (line 3, column 32: value expected).`)
    expect((error as ConfigError).exitCode).toBe(78)
  })

  it('a YAML one too, by the position its parser gives', async () => {
    const { env, cwd } = layout(undefined, { file: '.resilientrc.yaml', content: 'maxAttempts: 3\npypi:\n  mirrors: [a\n  b: 2\n' })
    await expect(loadConfig({ cwd, env })).rejects.toThrow(/\.resilientrc\.yaml:4:3: The config file .* could not be read: .*\(4:3\)$/)
  })

  it('in a project .resilientrc.json too', async () => {
    const { env, cwd } = layout(undefined, { file: '.resilientrc.json', content: '{ "maxAttempts": 3 "x": 1 }' })
    await expect(loadConfig({ cwd, env })).rejects.toThrow(/\.resilientrc\.json:1:20: not valid JSON \(line 1, column 20: comma expected\)/)
  })

  it('tolerant (resilient config): the layers before it are kept, with where each value came from, and the error', async () => {
    const { env, cwd, userFile } = layout({ maxAttempts: 5 }, { file: '.resilientrc.json', content: '{ "maxWaitSeconds": }' })
    env.RESILIENT_MAX_TOTAL_SECONDS = '99'
    const loaded = await loadConfig({ cwd, env, tolerant: true })
    expect(loaded.config.maxAttempts).toBe(5)
    expect(loaded.origins.maxAttempts).toBe(userFile)
    expect(loaded.config.maxTotalSeconds).toBe(1800)
    expect(loaded.broken?.message).toMatch(/\.resilientrc\.json:1:21: not valid JSON/)
  })
})

