import { describe, expect, it } from 'vitest'
import { withArgs, withEnv, withFile, withFlag } from '../../../src/tools/argv/command-line.js'
import { TOOLS } from '../../../src/tools/index.js'

describe('the shared command rewrites', () => {
  const base = { argv: ['pip', 'install', 'x'], env: { A: '1' } }

  it('add variables, arguments, a flag once and a file, never touching the command they were given', () => {
    const command = withFile(withFlag(withFlag(withArgs(withEnv(base, { A: '2', B: '3' }), '-i', 'u'), '--no-cache-dir'), '--no-cache-dir'), { path: '/p', content: 'c' })
    expect(command).toEqual({ argv: ['pip', 'install', 'x', '-i', 'u', '--no-cache-dir'], env: { A: '2', B: '3' }, files: [{ path: '/p', content: 'c' }] })
    expect(base).toEqual({ argv: ['pip', 'install', 'x'], env: { A: '1' } })
  })

  it('are what the adapters use: cache bypass appends its flag once', () => {
    expect(TOOLS.pip.bypassCache(TOOLS.pip.bypassCache(base)).argv).toEqual(['pip', 'install', 'x', '--no-cache-dir'])
    expect(TOOLS.poetry.bypassCache({ argv: ['poetry', 'add', 'x', '--no-cache'], env: {} }).argv).toEqual(['poetry', 'add', 'x', '--no-cache'])
  })
})
