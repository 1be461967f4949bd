import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'

const filesUnder = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: 'utf8' }) : [])

// `resilient demo` with the real pip: it must leave the person's state, logs and settings as they were.
describe('resilient demo', () => {
  it('recovers on its own state directory: no mirror health, no run log, no user config involved', async () => {
    const env = isolatedEnv()
    // A user config under which the demo could not recover, were it read: one attempt only.
    const userConfig = join(env.XDG_CONFIG_HOME!, 'resilient')
    mkdirSync(userConfig, { recursive: true })
    writeFileSync(join(userConfig, 'config.json'), '{ "maxAttempts": 1 }\n')
    const demo = await runCli(['demo'], { env, cwd: env.HOME })
    expect(demo.exitCode, demo.all).toBe(0)
    expect(demo.stderr).toMatch(/switching to mirror 127\.0\.0\.1:\d+/)
    expect(demo.stderr).toContain('Demo finished')
    const own = /state {4}(\S+) \(removed afterwards/.exec(demo.stderr)?.[1]
    expect(own).toBeDefined()
    expect(existsSync(own!)).toBe(false)

    expect(filesUnder(env.RESILIENT_STATE_DIR!)).toEqual([])
    expect(filesUnder(env.XDG_STATE_HOME!)).toEqual([])
    const logs = await runCli(['logs'], { env })
    expect(logs.stderr).toContain('No run logs yet')
    const mirrors = await runCli(['mirrors', 'pypi'], { env })
    expect(mirrors.all).not.toContain('127.0.0.1')
  }, 120_000)
})
