import { describe, expect, it } from 'vitest'
import { isolatedEnv } from '../helpers/isolated-env.js'
import { runCli } from '../helpers/run-cli.js'
import { projectWithConfig, pypiServers } from '../helpers/e2e-setup.js'
import { envWithTool } from '../helpers/npm-registries.js'

// What resilient prints from outside (argv, cwd, tool output, config values) can neither drive the
// terminal nor start a GitHub Actions workflow command.
const server = pypiServers()
const INJECTED = 'demo\n::error title=x::pwned'
const OSC52 = '\x1b]52;c;ZXZpbA==\x07'

describe('no injection through what resilient prints', () => {
  it('under GitHub Actions no line of resilient\'s starts a workflow command, and logs replay no escape sequence', async () => {
    const primary = await server({ wheels: [], fault: { kind: 'status', status: 503 } })
    const cwd = projectWithConfig({ pypi: { index: primary.url, mirrors: [] }, maxAttempts: 1 })
    const env = isolatedEnv({ GITHUB_ACTIONS: 'true' })
    const result = await runCli(['python3', '-m', 'pip', 'download', '--no-deps', '-d', cwd, INJECTED, OSC52], { cwd, env })
    expect(result.exitCode).not.toBe(0)
    const ours = result.stderr.split('\n').filter(line => /^(→|✖|…|!|\s+│|\s+→)/.test(line))
    expect(ours.length).toBeGreaterThan(0)
    expect(result.stderr.split('\n').filter(line => line.startsWith('::error title=x'))).toEqual([])
    expect(ours.join('\n')).not.toContain('\x1b]52')
    const logs = await runCli(['logs', '--last'], { cwd, env: { ...env, GITHUB_ACTIONS: '' } })
    expect(logs.stdout).toContain('demo\\n::error title=x::pwned')
    expect(logs.stdout).not.toMatch(/\x1b|\x07/)
  })

  it('under GitHub Actions with --verbose, an evidence line quoting the tool never becomes a workflow command', async () => {
    // npm prints each line of its message after `npm error `; resilient's evidence drops that prefix and indents the
    // rest, and the runner trims the indent: the argument's second line would run as `::error`.
    const cwd = projectWithConfig({ npm: { mirrors: [] }, maxAttempts: 1 })
    const env = envWithTool('npm', { GITHUB_ACTIONS: 'true' })
    const result = await runCli(['-v', 'npm', 'install', '--registry=http://127.0.0.1:9/', 'left-pad@\n::error title=x::pwned'], { cwd, env })
    expect(result.exitCode).not.toBe(0)
    expect(result.stderr).toContain('npm error ::error title=x::pwned')
    expect(result.stderr).toMatch(/^ {4}%3A:error title=x::pwned/m)
    // As the runner reads them: every line that starts a command, once trimmed, is one resilient meant.
    const commands = result.all.split(/\r\n|\r|\n/).map(line => line.replace(/^[\s\u0085]+/, '')).filter(line => line.startsWith('::'))
    expect(commands.length).toBeGreaterThan(0)
    for (const line of commands) expect(line).toMatch(/^::(group::resilient: |endgroup::$|add-mask::|warning title=resilient retry::|error title=resilient gave up::|notice title=resilient::)/)
  })
})
