import { chmodSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isMambaClassic, mamba } from '../../../src/tools/mamba.js'
import { contextIn, folderWith, rewrite } from '../../helpers/tool-cases.js'

const M = 'https://prefix.test'

/** An executable that prints `output` for `--version`, as mamba 1 or 2 would. */
function fakeMamba(output: string): string {
  const dir = folderWith({ mamba: `#!/bin/sh\nprintf '%s\\n' ${JSON.stringify(output)}\n` })
  chmodSync(join(dir, 'mamba'), 0o755)
  return join(dir, 'mamba')
}

describe('mamba: 1.x and 2.x', () => {
  it.each([['mamba 1.5.8\nconda 24.1.2', true], ['mamba 0.27.0\nconda 22.9.0', true], ['2.0.5', false], ['2.8.1\n', false], ['', false]])(
    'reads %j', (output, classic) => expect(isMambaClassic(output)).toBe(classic))

  it('takes conda\'s CLI for mamba 1.x', async () => {
    const classic = await mamba.resolveVariant(fakeMamba('mamba 1.5.8\nconda 24.1.2'), process.env)
    expect(classic.name).toBe('mamba-classic')
    expect(rewrite(classic, 'mamba install -c conda-forge x', M)).toBe(`CONDA_CHANNEL_ALIAS=${M} mamba install -c conda-forge x`)
    expect(classic.findUserIndex(contextIn(folderWith({}), 'install --chan https://corp.test/ch x'))?.url).toBe('https://corp.test/ch')
  })

  it('takes micromamba\'s CLI for mamba 2.x', async () => {
    const current = await mamba.resolveVariant(fakeMamba('2.0.5'), process.env)
    expect(current.name).toBe('mamba')
    expect(rewrite(current, 'mamba install -c conda-forge x', M)).toBe(`mamba install -c conda-forge x --channel-alias ${M}`)
  })

  it('takes 2.x when the version cannot be read', async () => {
    expect((await mamba.resolveVariant('/nonexistent/mamba', process.env)).name).toBe('mamba')
  })

  it('rewrites like micromamba before the version is known', () =>
    expect(rewrite(mamba, 'mamba create -n e python', M)).toBe(`mamba create -n e python --channel-alias ${M}`))
})
