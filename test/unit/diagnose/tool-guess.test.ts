import { describe, expect, it } from 'vitest'
import { guessTool, toolNamed } from '../../../src/diagnose/tool-guess.js'
import { TOOLS } from '../../../src/tools/index.js'
import { fixture } from './rule-cases.js'

const _ = (name: string, expected: string | null) => () => expect(guessTool(fixture(name).output)).toBe(expected)

describe('guessTool', () => {
  it('knows pip by its retry lines', _('pip/py-004-timeout', 'pip'))
  it('knows uv by its resolver words', _('uv/py-058-resolution-conflict', 'uv'))
  it('knows `uv pip install` is uv, not pip', _('uv/py-072-build-failure', 'uv'))
  it('knows conda by its exceptions', _('conda/cj-001-connection', 'conda'))
  it('knows micromamba by name', _('micromamba/cj-051-package-not-found', 'micromamba'))
  it('knows pixi by its pypi wording', _('pixi/cj-090-build-failure', 'pixi'))
  it('knows npm under docker timestamps', _('npm/cj-108-dns', 'npm'))
  it('knows pnpm by its codes', _('pnpm/cj-171-package-not-found', 'pnpm'))
  it('knows yarn classic', _('yarn/cj-181-timeout', 'yarn'))
  it('knows yarn berry by its YN codes', _('yarn/cj-184-hash-mismatch', 'yarn-berry'))
  it('knows poetry', _('poetry/py-209-resolution-conflict', 'poetry'))
  it('knows cargo', _('cargo/captured-dns', 'cargo'))
  it('knows go', _('go/captured-proxy', 'go'))
  it('knows bun', _('bun/captured-dns', 'bun'))
  it('is not fooled by the PEP 668 advice to use pipx', _('pip/py-092-externally-managed', 'pip'))
  it('says nothing when nothing tells', () => expect(guessTool('something went wrong')).toBeNull())
})

describe('toolNamed', () => {
  it('takes every spelling from the adapters: executables, nicknames, names', () => {
    const cases = { pip3: 'pip', 'pip3.12': 'pip', uvx: 'uv', npx: 'npm', 'npm.cmd': 'npm', 'pnpm.cjs': 'pnpm', yarnpkg: 'yarn',
      berry: 'yarn-berry', bunx: 'bun', 'conda.bat': 'conda', 'Micromamba.exe': 'micromamba', python3: 'python', py: 'python', node: 'node' }
    for (const [typed, tool] of Object.entries(cases)) expect(toolNamed(typed), typed).toBe(tool)
    for (const name of Object.keys(TOOLS)) expect(toolNamed(name), name).toBe(name)
    expect(toolNamed('make')).toBeUndefined()
  })

  it('counts a command line in a log by any spelling an adapter answers to', () => {
    expect(guessTool('$ npm.cmd install left-pad\nsomething failed')).toBe('npm')
    expect(guessTool('$ make install\nsomething failed')).toBeNull()
  })
})
