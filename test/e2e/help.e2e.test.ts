import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/run-cli.js'

// A mistyped first word is answered with the command it probably is before a tool; `resilient help [command]` works
// as `git help` does.

describe('a mistyped first word', () => {
  it.each([['confg', 'config'], ['doctr', 'doctor'], ['mirror', 'mirrors'], ['mirors', 'mirrors'], ['sheem', 'shim'], ['piip', 'pip']])(
    '%s: "did you mean %s?", exit 64', async (typed, meant) => {
      const result = await runCli([typed, 'install', 'x'])
      expect(result.exitCode).toBe(64)
      expect(result.stdout).toBe('')
      expect(result.stderr).toContain(`resilient: "${typed}" is not a command or a tool resilient knows. Did you mean ${meant}?\n`)
      expect(result.stderr).toMatch(/→ Commands: why, demo, run, mirrors, config, .*\. Tools: pip, npm, /)
    })

  it('after resilient\'s own options too', async () => {
    const result = await runCli(['--verbose', 'confg'])
    expect(result.exitCode).toBe(64)
    expect(result.stderr).toContain('Did you mean config?')
  })

  it('a word far from everything gets no guess, and both lists', async () => {
    const result = await runCli(['terraform', 'apply'])
    expect(result.exitCode).toBe(64)
    expect(result.stderr).toMatch(/^resilient: "terraform" is not a command or a tool resilient knows\.\n {2}→ Commands: /)
  })
})

describe('resilient help', () => {
  it('alone prints what --help prints', async () => {
    const [help, flag] = await Promise.all([runCli(['help']), runCli(['--help'])])
    expect(help.exitCode).toBe(0)
    expect(help.stdout).toBe(flag.stdout)
    expect(help.stdout).toContain('help [command...]')
  })

  it.each(['mirrors', 'mirrors test', 'doctor', 'shim install'])('help %s prints that command\'s --help', async line => {
    const words = line.split(' ')
    const [help, flag] = await Promise.all([runCli(['help', ...words]), runCli([...words, '--help'])])
    expect(help.exitCode).toBe(0)
    expect(help.stdout).toBe(flag.stdout)
    expect(help.stdout).toContain(`Usage: resilient ${words.join(' ')}`)
  })

  it('help <tool> says where the tool\'s page is', async () => {
    const result = await runCli(['help', 'npx'])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain('docs/tools/npm.md')
  })

  it('help <mistyped> suggests the command, exit 64', async () => {
    const result = await runCli(['help', 'mirrors', 'tset'])
    expect(result.exitCode).toBe(64)
    expect(result.stderr).toContain('"tset" is not a command of resilient mirrors. Did you mean test?')
  })
})
