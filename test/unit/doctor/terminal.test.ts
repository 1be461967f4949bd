import { describe, expect, it } from 'vitest'
import { checkTerminal } from '../../../src/doctor/terminal.js'

describe('doctor: node-pty', () => {
  it('says when it is missing and what that costs, as a warning (nothing is broken)', () => {
    const section = checkTerminal(() => ({ ok: false, reason: "Cannot find module 'node-pty'" }))
    expect(section.lines).toEqual(["node-pty: not usable (Cannot find module 'node-pty')"])
    expect(section.problems).toEqual([expect.objectContaining({ severity: 'warning', area: 'terminal', message: expect.stringMatching(/no colours and no progress bars/), fix: expect.stringMatching(/compiler and Node's headers/) })])
  })
  it('says nothing wrong when it loads', () => {
    expect(checkTerminal(() => ({ ok: true })).problems).toEqual([])
  })
})
