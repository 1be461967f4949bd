import { mkdtempSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { pnpmrcFiles, pnpmUserNpmrc } from '../../../../src/tools/config/pnpm-config.js'

const cwd = mkdtempSync(join(tmpdir(), 'resilient-pnpm-home-'))

describe('pnpm\'s config files without HOME', () => {
  it('are found under the home folder the system names, as pnpm finds them (os.homedir()), never under the working folder', () => {
    const files = pnpmrcFiles({ args: ['install'], env: {}, cwd, home: '' })
    expect(files.every(isAbsolute)).toBe(true)
    expect(files).toContain(join(homedir(), '.config', 'pnpm', 'rc'))
    expect(files).not.toContain(join(cwd, '.config', 'pnpm', 'rc'))
    expect(pnpmUserNpmrc({})).toBe(join(homedir(), '.npmrc'))
  })

  it('follow XDG_CONFIG_HOME and HOME where they are set', () => {
    expect(pnpmrcFiles({ args: ['install'], env: { XDG_CONFIG_HOME: '/x' }, cwd, home: '/h' })).toContain('/x/pnpm/auth.ini')
    expect(pnpmrcFiles({ args: ['install'], env: {}, cwd, home: '/h' })).toContain('/h/.config/pnpm/auth.ini')
    expect(pnpmUserNpmrc({ HOME: '/h' })).toBe('/h/.npmrc')
  })
})
