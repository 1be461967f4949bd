import { describe, expect, it } from 'vitest'
import { consentMode, describeProposal } from '../../../src/autoinstall/consent.js'

describe('consentMode', () => {
  it.each([
    ['allowlist', true, false, { action: 'install', how: 'yes-flag' }],
    ['allowlist', true, true, { action: 'install', how: 'yes-flag' }],
    ['allowlist', false, true, { action: 'ask', defaultYes: true }],
    ['proposed', false, true, { action: 'ask', defaultYes: false }],
    ['proposed', true, true, { action: 'ask', defaultYes: false }],
  ] as const)('%s, --yes %s, terminal %s', (tier, yes, interactive, expected) => {
    expect(consentMode(tier, { yes, interactive })).toEqual(expected)
  })

  it('installs nothing without a terminal unless --yes, and then only reviewed names', () => {
    expect(consentMode('allowlist', { yes: false, interactive: false })).toMatchObject({ action: 'decline', reason: expect.stringMatching(/--yes/) })
    expect(consentMode('proposed', { yes: true, interactive: false })).toMatchObject({ action: 'decline', reason: expect.stringMatching(/reviewed names only/) })
  })
})

describe('describeProposal', () => {
  it('shows the evidence, the package, where, the command, and a warning for unreviewed names', () => {
    const lines = describeProposal({ tier: 'proposed', package: 'humanize', why: 'humanize (not reviewed)', verifyModule: 'humanize' },
      { ecosystem: 'python', reported: 'humanize', name: 'humanize', evidence: ['import humanize', "ModuleNotFoundError: No module named 'humanize'"] },
      { command: '/v/bin/python -m pip install humanize', environment: '/v/bin/python' })
    expect(lines.join('\n')).toMatch(/cannot import "humanize"[\s\S]*No module named 'humanize'[\s\S]*into: +\/v\/bin\/python[\s\S]*command: +\/v\/bin\/python -m pip install humanize[\s\S]*someone else's code/)
  })
})
