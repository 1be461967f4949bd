import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { renderBash } from '../../../src/completion/bash.js'
import { renderFish } from '../../../src/completion/fish.js'
import { completionModel, type CompletionModel } from '../../../src/completion/model.js'
import { renderZsh } from '../../../src/completion/zsh.js'
import { command, itNeeding } from '../../helpers/requirements.js'

let model: CompletionModel

beforeAll(async () => {
  // the build (rollup.config.mjs) defines __VERSION__; the program reads it when built.
  (globalThis as { __VERSION__?: string }).__VERSION__ = '0.0.0-test'
  const { buildProgram } = await import('../../../src/cli/program.js')
  model = completionModel(buildProgram(), ['pip', 'pip3', 'npm'])
})

function script(text: string, name: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'resilient-completion-')), name)
  writeFileSync(file, text)
  return file
}

/** What bash offers for a command line whose last word is being completed. */
function bashComplete(line: string): string[] {
  const words = line.split(' ')
  const file = script(renderBash(model), 'resilient.bash')
  const code = `source '${file}'; COMP_WORDS=(${words.map(word => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _resilient; printf '%s\\n' "\${COMPREPLY[@]}"`
  const result = spawnSync('bash', ['--norc', '-c', code], { encoding: 'utf8', cwd: tmpdir() })
  expect(result.stderr).toBe('')
  return result.stdout.split('\n').filter(Boolean)
}

describe('the completion model', () => {
  it('lists the visible subcommands with their options, never the hidden shim runner', () => {
    const names = model.commands.map(command => command.name)
    expect(names).toEqual(expect.arrayContaining(['why', 'doctor', 'logs', 'shim', 'init', 'completion']))
    const shim = model.commands.find(command => command.name === 'shim')!
    expect(shim.subcommands.map(sub => sub.name)).toEqual(['install', 'uninstall'])
    expect(model.commands.find(command => command.name === 'init')!.argument).toEqual(['bash', 'zsh', 'fish', 'powershell'])
    expect(model.options.find(option => option.flags.includes('--report'))).toMatchObject({ value: 'file' })
  })
})

describe('bash', () => {
  it('offers subcommands and tools first', () => expect(bashComplete('resilient ')).toEqual(expect.arrayContaining(['doctor', 'shim', 'pip', 'npm'])))
  it('completes global options', () => expect(bashComplete('resilient --rep')).toEqual(['--report']))
  it('completes a subcommand of shim', () => expect(bashComplete('resilient shim un')).toEqual(['uninstall']))
  it('offers tools and options after shim install', () => expect(bashComplete('resilient shim install p')).toEqual(['pip', 'pip3']))
  it('offers the shells for init', () => expect(bashComplete('resilient init f')).toEqual(['fish']))
  it('completes options of logs', () => expect(bashComplete('resilient logs --l')).toEqual(expect.arrayContaining(['--last', '--limit'])))
  it('skips global option values before the subcommand', () => expect(bashComplete('resilient --report r.json logs --j')).toEqual(['--json']))
  it('hands a tool\'s arguments to the tool (files when it has no completion)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'resilient-cwd-'))
    writeFileSync(join(dir, 'requirements.txt'), '')
    const file = script(renderBash(model), 'r.bash')
    const result = spawnSync('bash', ['--norc', '-c', `source '${file}'; COMP_WORDS=(resilient pip install -r req); COMP_CWORD=4; _resilient; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8', cwd: dir })
    expect(result.stdout.trim()).toBe('requirements.txt')
  })
})

describe('zsh', () => {
  itNeeding(command('zsh'), 'is valid zsh', () => {
    const result = spawnSync('zsh', ['-n', script(renderZsh(model), '_resilient')], { encoding: 'utf8' })
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
  })
  it('describes subcommands and hands tools to _normal', () => {
    const text = renderZsh(model)
    expect(text).toMatch(/^#compdef resilient/)
    expect(text).toContain("'doctor:")
    expect(text).toContain('*) _normal ;;')
    expect(text).toContain('_resilient_tools=(pip pip3 npm)')
  })
})

describe('fish', () => {
  const fishComplete = (line: string) => {
    const file = script(renderFish(model), 'resilient.fish')
    const result = spawnSync('fish', ['--no-config', '-c', `source '${file}'; complete -C '${line}'`], { encoding: 'utf8' })
    expect(result.stderr).toBe('')
    return result.stdout.split('\n').filter(Boolean).map(entry => entry.split('\t')[0])
  }
  itNeeding(command('fish'), 'offers subcommands and tools', () => expect(fishComplete('resilient ')).toEqual(expect.arrayContaining(['doctor', 'shim', 'pip'])))
  itNeeding(command('fish'), 'completes shim subcommands', () => expect(fishComplete('resilient shim ')).toEqual(['install', 'uninstall']))
  itNeeding(command('fish'), 'completes options of a subcommand', () => expect(fishComplete('resilient logs --')).toEqual(expect.arrayContaining(['--last', '--json', '--limit'])))
})
