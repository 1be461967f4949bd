import { describe, expect, it } from 'vitest'
import { chooseNodePackage, type NodeContext } from '../../../src/autoinstall/choose-node.js'
import type { MissingModule } from '../../../src/autoinstall/types.js'

function choose(reported: string, name: string, context: Partial<NodeContext> = {}) {
  const module: MissingModule = { ecosystem: 'node', reported, name, evidence: [] }
  return chooseNodePackage(module, { aliases: [], ...context })
}

describe('chooseNodePackage', () => {
  it('installs a reviewed package under its own name', () => {
    expect(choose('lodash/fp', 'lodash')).toMatchObject({ tier: 'allowlist', package: 'lodash', verifyModule: 'lodash' })
  })

  it('only proposes any other name', () => {
    expect(choose('left-pad', 'left-pad')).toMatchObject({ tier: 'proposed', package: 'left-pad' })
  })

  it('refuses a squat and names the real package', () => {
    expect(choose('crossenv', 'crossenv')).toMatchObject({ tier: 'refused', reason: expect.stringMatching(/typosquat/), hint: expect.stringMatching(/cross-env/) })
  })

  it('refuses a missing subpath of an installed package', () => {
    expect(choose('lodash/nofile', 'lodash', { installedAt: '/p/node_modules/lodash' })).toMatchObject({ tier: 'refused', reason: expect.stringMatching(/installed .* but has no "lodash\/nofile"/) })
  })

  it('refuses a tsconfig path alias', () => {
    expect(choose('@app/util', '@app/util', { aliases: ['@app/'] })).toMatchObject({ tier: 'refused', reason: expect.stringMatching(/path alias "@app\/\*"/) })
  })
})
