import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { aliasLines, detectShell, pathLine } from '../../../src/shims/shell-lines.js'
import { command, itNeeding } from '../../helpers/requirements.js'

const DIR = "/home/o'neil/my shims/$HOME"

describe('detectShell', () => {
  it.each([['/bin/zsh', 'zsh'], ['/usr/bin/fish', 'fish'], ['/bin/bash', 'bash'], ['/bin/dash', 'bash']])('%s → %s', (shell, expected) => expect(detectShell({ SHELL: shell })).toBe(expected))
  it('recognises PowerShell without $SHELL', () => expect(detectShell({ PSModulePath: 'C:\\x' })).toBe('powershell'))
})

describe('pathLine puts the directory first, exactly, even with quotes, spaces and $', () => {
  it('bash', () => {
    const result = spawnSync('bash', ['-c', `PATH=/usr/bin:/bin; ${pathLine('bash', DIR)}; printf %s "$PATH"`], { encoding: 'utf8' })
    expect(result.stdout).toBe(`${DIR}:/usr/bin:/bin`)
  })
  itNeeding(command('zsh'), 'zsh', () => {
    const result = spawnSync('zsh', ['-c', `PATH=/usr/bin:/bin; ${pathLine('zsh', DIR)}; printf %s "$PATH"`], { encoding: 'utf8' })
    expect(result.stdout).toBe(`${DIR}:/usr/bin:/bin`)
  })
  itNeeding(command('fish'), 'fish (fish_add_path adds only a directory that exists: shim install creates it first)', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'resilient-fish-')), "o'neil's shims $x")
    mkdirSync(dir)
    const result = spawnSync('fish', ['--no-config', '-c', `set -gx PATH /usr/bin /bin; ${pathLine('fish', dir)}; printf %s "$PATH[1]"`], { encoding: 'utf8' })
    expect(result.stdout).toBe(dir)
  })
  it('powershell', () => expect(pathLine('powershell', "C:\\it's")).toBe("$env:PATH = 'C:\\it''s' + [IO.Path]::PathSeparator + $env:PATH"))
})

describe('aliasLines', () => {
  it('bash functions run the tool through resilient, quoted, and read-only calls without it', () => {
    const lines = aliasLines('bash', ['pip', 'npx'], ['/opt/my resilient/bin/resilient'], tool => tool === 'pip' ? { leadingFlags: ['-q'], commands: [{ words: ['--version'], exact: true }, { words: ['list'], deny: ['--o*'] }] } : undefined)
    expect(lines).toContain(`function npx { '/opt/my resilient/bin/resilient' npx "$@"; }`)
    const fake = spawnSync('bash', ['-c', `${lines.join('\n')}\nfunction command { echo "real $*"; }\nfor call in '--version' '-q list' 'list --outdated' 'install x' '--version x'; do pip $call; done`], { encoding: 'utf8' })
    expect(fake.stderr).toMatch(/my resilient\/bin\/resilient: No such file or directory/)
    expect(fake.stdout.trim().split('\n')).toEqual(['real pip --version', 'real pip -q list'])
  })
  itNeeding(command('fish'), 'fish functions are valid fish', () => {
    const lines = aliasLines('fish', ['pip'], ['resilient'])
    expect(lines).toEqual(['function pip --wraps pip; resilient pip $argv; end'])
    expect(spawnSync('fish', ['--no-config', '-n', '-c', lines.join('\n')]).status).toBe(0)
  })
  it('powershell functions call resilient with the arguments', () => {
    expect(aliasLines('powershell', ['pip'], ['resilient'])).toEqual(['function pip { resilient pip @args }'])
    expect(aliasLines('powershell', ['pip'], ['C:\\node.exe', "C:\\it's\\r.js"])).toEqual(["function pip { & 'C:\\node.exe' 'C:\\it''s\\r.js' pip @args }"])
  })
})
