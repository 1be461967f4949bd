import { expect, it } from 'vitest'
import { describeNeeding } from '/work/wt-32-node-gaps/test/helpers/requirements.js'
describeNeeding({ name: 'no-such-tool', available: false, installedBy: '.ci/run installs it' }, 'real no-such-tool', () => {
  it('works', () => expect(1).toBe(1))
})