import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig } from '../helpers/e2e-setup.js'

// `resilient config` and `resilient mirrors add/use/remove/list`, on the built CLI, in a temporary HOME.
const userConfig = (env: Record<string, string>) => JSON.parse(readFileSync(join(env.XDG_CONFIG_HOME!, 'resilient', 'config.json'), 'utf8'))

describe('resilient config', () => {
  it('prints every effective value and where it came from: default, user file, project file, RESILIENT_*, flag', async () => {
    const env = isolatedEnv({ RESILIENT_BREAKER_COOLDOWN_SECONDS: '60' })
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'resilient'), { recursive: true })
    const userFile = join(env.XDG_CONFIG_HOME!, 'resilient', 'config.json')
    writeFileSync(userFile, JSON.stringify({ maxWaitSeconds: 5, pypi: { mirrors: ['aliyun'] } }))
    const cwd = projectWithConfig({ breaker: { failureThreshold: 5 }, pypi: { index: 'https://pypi.org/simple' } })
    const result = await runCli(['--max-attempts', '9', '--offline', 'config', '--json'], { cwd, env })
    expect(result.exitCode, result.all).toBe(0)
    const output = JSON.parse(result.stdout)
    const from = Object.fromEntries(output.settings.map((setting: { path: string; from: string }) => [setting.path, setting.from]))
    const project = join(cwd, '.resilientrc.json')
    expect(from).toMatchObject({ maxAttempts: '--max-attempts', offline: '--offline', maxWaitSeconds: userFile, 'pypi.mirrors': userFile,
      'breaker.failureThreshold': project, 'pypi.index': project, 'breaker.cooldownSeconds': 'RESILIENT_BREAKER_COOLDOWN_SECONDS', maxTotalSeconds: 'default' })
    expect(output.config).toMatchObject({ maxAttempts: 9, offline: true, breaker: { failureThreshold: 5, cooldownSeconds: 60 } })
    expect(output.files).toEqual({ user: { path: userFile, exists: true }, project })

    const text = await runCli(['config'], { cwd, env })
    expect(text.stdout).toMatch(/^precedence \(lowest first\): defaults < user config < project config < RESILIENT_\* environment < command-line flags$/m)
    expect(text.stdout).toMatch(new RegExp(`^breaker\\.failureThreshold +5 +${project.replace(/[./]/g, '\\$&')}$`, 'm'))
    expect(text.stdout).toMatch(/^breaker\.cooldownSeconds +60 +RESILIENT_BREAKER_COOLDOWN_SECONDS$/m)
  })

  it('stops with exit 78 naming the file and key of a bad value', async () => {
    const result = await runCli(['config'], { cwd: projectWithConfig({ breaker: { failureThreshold: 0 } }) })
    expect(result.exitCode).toBe(78)
    expect(result.stderr).toMatch(/\.resilientrc\.json: invalid value for "breaker\.failureThreshold"/)
  })

  it('prints the values up to a broken file and where each came from, then the file:line:column of its error, exit 78', async () => {
    const env = isolatedEnv()
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'resilient'), { recursive: true })
    const userFile = join(env.XDG_CONFIG_HOME!, 'resilient', 'config.json')
    writeFileSync(userFile, JSON.stringify({ maxAttempts: 6 }))
    const cwd = projectWithConfig({})
    writeFileSync(join(cwd, '.resilientrc.json'), '{\n  "maxWaitSeconds": 5,\n  "pypi": { "mirrors": ["tuna",] }\n}\n')
    const result = await runCli(['config'], { cwd, env })
    expect(result.exitCode).toBe(78)
    expect(result.stdout).toMatch(new RegExp(`^maxAttempts +6 +${userFile.replace(/[./]/g, '\\$&')}$`, 'm'))
    expect(result.stdout).toMatch(/^maxWaitSeconds +60 +default$/m)
    expect(result.stderr).toMatch(/\.resilientrc\.json:3:32: not valid JSON \(line 3, column 32: value expected\)/)
  })
})

describe('resilient mirrors add / use / remove', () => {
  it('names a mirror, puts it first, and drops it again, in the user config', async () => {
    const env = isolatedEnv()
    const cwd = projectWithConfig({})
    const added = await runCli(['mirrors', 'add', 'corp', 'https://pypi.corp.example/simple'], { cwd, env })
    expect(added.exitCode, added.all).toBe(0)
    expect(added.stdout).toMatch(/^added pypi mirror corp → https:\/\/pypi\.corp\.example\/simple; order tried: tuna, aliyun, .*, nju, kakao, corp/)
    expect(userConfig(env).pypi).toEqual({ custom: { corp: 'https://pypi.corp.example/simple' }, mirrors: ['tuna', 'aliyun', 'tencent', 'huawei', 'bfsu', 'sjtug', 'nju', 'kakao', 'corp'] })

    expect((await runCli(['mirrors', 'use', 'corp'], { cwd, env })).exitCode).toBe(0)
    expect(userConfig(env).pypi.mirrors[0]).toBe('corp')
    const planned = await runCli(['--dry-run', 'python3', '-m', 'pip', 'download', 'demo-pkg'], { cwd, env })
    expect(planned.stdout.split('\n')[1]).toMatch(/--index-url https:\/\/pypi\.corp\.example\/simple$/)

    const ambiguous = await runCli(['mirrors', 'use', 'tuna'], { cwd, env })
    expect(ambiguous.exitCode).toBe(64)
    expect(ambiguous.stderr).toMatch(/"tuna" is a mirror of pypi, conda, crates[\s\S]*--ecosystem pypi/)
    expect((await runCli(['mirrors', 'use', 'tuna', '--ecosystem', 'pypi'], { cwd, env })).exitCode).toBe(0)
    expect(userConfig(env).pypi.mirrors.slice(0, 2)).toEqual(['tuna', 'corp'])

    const removed = await runCli(['mirrors', 'remove', 'corp'], { cwd, env })
    expect(removed.exitCode, removed.all).toBe(0)
    expect(userConfig(env).pypi.custom).toBeUndefined()
    expect(userConfig(env).pypi.mirrors).not.toContain('corp')
    const missing = await runCli(['mirrors', 'remove', 'corp', '-e', 'pypi'], { cwd, env })
    expect(missing.exitCode).toBe(64)
    expect(missing.stderr).toMatch(/"corp" is not in your pypi mirrors/)
  })

  it('never shows the credentials of a mirror URL', async () => {
    const env = isolatedEnv()
    const cwd = projectWithConfig({})
    const outputs = [
      await runCli(['mirrors', 'add', 'private', 'https://alice:hunter2secret@pypi.private.example/simple'], { cwd, env }),
      await runCli(['mirrors', 'list', 'pypi'], { cwd, env }),
      await runCli(['mirrors', 'list', 'pypi', '--json'], { cwd, env }),
      await runCli(['config'], { cwd, env }),
      await runCli(['config', '--json'], { cwd, env }),
    ]
    for (const output of outputs) {
      expect(output.exitCode, output.all).toBe(0)
      expect(output.all).not.toContain('hunter2secret')
    }
    expect(outputs[1]!.stdout).toContain('pypi.private.example')
  })

  it('rejects bad names, URLs and ecosystems with a one-paragraph error', async () => {
    const cases = [
      [['mirrors', 'add', 'tuna', 'https://x.example/simple'], /"tuna" is a built-in pypi mirror/],
      [['mirrors', 'add', 'a b', 'https://x.example/simple'], /cannot be a mirror name/],
      [['mirrors', 'add', 'x', 'not a url'], /is not a URL/],
      [['mirrors', 'add', 'x', 'https://example.com/'], /Cannot tell which ecosystem/],
      [['mirrors', 'use', 'nope', '-e', 'pypi'], /pypi has no mirror named "nope"/],
    ] as const
    for (const [args, message] of cases) {
      const result = await runCli([...args])
      expect(result.exitCode, args.join(' ')).toBe(64)
      expect(result.stderr).toMatch(message)
      expect(result.stderr).not.toMatch(/\n\s+at /)
    }
  })
})

describe('a project config sending installs outside the catalog', () => {
  // A cloned repository cannot redirect installs through a shim: the file is used only once trusted.
  it('is not used until trusted with `resilient config trust`, and not once it changes', async () => {
    const env = isolatedEnv()
    const cwd = projectWithConfig({ pypi: { index: 'https://pypi.attacker.example/simple' } })
    const first = await runCli(['--dry-run', 'python3', '-m', 'pip', 'download', 'demo-pkg'], { cwd, env })
    expect(first.exitCode).toBe(0)
    expect(first.stderr).toMatch(/\.resilientrc\.json was not used: it sends installs to pypi\.attacker\.example/)
    expect(first.stdout).not.toContain('pypi.attacker.example')
    const trusted = await runCli(['config', 'trust'], { cwd, env })
    expect(trusted.exitCode, trusted.all).toBe(0)
    expect(trusted.stderr).toMatch(/Trusted .*\.resilientrc\.json \(sha256 [0-9a-f]{12}…\)[\s\S]*It sends installs to pypi\.attacker\.example/)
    const second = await runCli(['--dry-run', 'python3', '-m', 'pip', 'download', 'demo-pkg'], { cwd, env })
    expect(second.stderr).not.toMatch(/was not used/)
    expect(second.stdout).toContain('--index-url https://pypi.attacker.example/simple')
    writeFileSync(join(cwd, '.resilientrc.json'), JSON.stringify({ pypi: { index: 'https://pypi.other-attacker.example/simple' } }))
    const changed = await runCli(['--dry-run', 'python3', '-m', 'pip', 'download', 'demo-pkg'], { cwd, env })
    expect(changed.stderr).toMatch(/was not used: it sends installs to pypi\.other-attacker\.example/)
  })

  it('a project config that is code writes no marker until trusted, and none for a read-only verb', async () => {
    const env = isolatedEnv()
    const cwd = projectWithConfig({})
    const marker = join(cwd, 'marker')
    writeFileSync(join(cwd, 'resilient.config.cjs'), `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); module.exports = { maxAttempts: 2 }\n`)
    rmSync(join(cwd, '.resilientrc.json'))
    const dry = await runCli(['--dry-run', 'python3', '-m', 'pip', 'download', 'demo-pkg'], { cwd, env })
    expect(existsSync(marker)).toBe(false)
    expect(dry.stderr).toMatch(/resilient\.config\.cjs was not loaded: a project config that is code runs only once you trust it \(resilient config trust /)
    expect((await runCli(['config', 'trust', 'resilient.config.cjs'], { cwd, env })).exitCode).toBe(0)
    await runCli(['python3', '-m', 'pip', '--version'], { cwd, env })
    expect(existsSync(marker)).toBe(false)
    await runCli(['--dry-run', 'python3', '-m', 'pip', 'download', 'demo-pkg'], { cwd, env })
    expect(existsSync(marker)).toBe(true)
  })
})
