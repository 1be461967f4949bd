import { describe, expect, it } from 'vitest'
import { isPlainToolCall, isShimRun } from '../../../src/cli/run-cli.js'
import { SUBCOMMANDS } from '../../../src/cli/subcommands.js'

describe('the plain tool call, run without commander', () => {
  it('knows every subcommand commander knows, help included', async () => {
    // the build (rollup.config.mjs) defines __VERSION__; the program reads it when built.
    (globalThis as { __VERSION__?: string }).__VERSION__ = '0.0.0-test'
    const { buildProgram } = await import('../../../src/cli/program.js')
    const names = buildProgram().commands.flatMap(command => [command.name(), ...command.aliases()])
    expect([...SUBCOMMANDS].sort()).toEqual(names.sort())
  })

  const _ = (line: string, expected: boolean) => () => expect(isPlainToolCall(line.split(' ').filter(Boolean))).toBe(expected)
  it('a tool and its arguments', _('pip install -q torch --index-url x', true))
  it('python -m pip', _('python3 -m pip download x', true))
  it('a tool alone', _('npm', true))
  it('an option of resilient first goes to commander', _('-v pip install x', false))
  it('--help goes to commander', _('--help', false))
  it('a subcommand goes to commander', _('mirrors list', false))
  it('help goes to commander', _('help', false))
  it('nothing goes to commander (it prints the help)', _('', false))

  it('shim run with a tool name', () => {
    expect(isShimRun(['shim', 'run', 'pip', '--version'])).toBe(true)
    expect(isShimRun(['shim', 'run'])).toBe(false)
    expect(isShimRun(['shim', 'run', '--help'])).toBe(false)
    expect(isShimRun(['shim', 'install', 'pip'])).toBe(false)
  })
})
