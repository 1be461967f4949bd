import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Interrupts } from '../../../src/exec/interrupts.js'
import { runChild } from '../../../src/exec/run-child.js'

const dir = mkdtempSync(join(tmpdir(), 'resilient-interrupted-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('an attempt interrupted before its tool starts', () => {
  // The retry loop looks for an interrupt before an attempt; one that comes while the attempt is prepared (a lockfile
  // rewritten, pipes made) found no tool to go to and was lost: the tool then ran as if nothing had been typed.
  it.each(['SIGINT', 'SIGTERM'] as const)('does not start the tool after a %s, and ends as that signal would', async signal => {
    const marker = join(dir, `started-${signal}`)
    const interrupts = new Interrupts()
    interrupts.raise(signal)
    const result = await runChild({ argv: ['sh', '-c', `touch ${marker}`], env: {} }, { env: process.env, interrupts, pty: false, input: 'ignore' })
    expect(existsSync(marker)).toBe(false)
    expect(result).toMatchObject({ interrupted: signal, signal, exitCode: signal === 'SIGINT' ? 130 : 143 })
  })

  it('starts it when nothing was received', async () => {
    const marker = join(dir, 'started')
    const result = await runChild({ argv: ['sh', '-c', `touch ${marker}`], env: {} }, { env: process.env, interrupts: new Interrupts(), pty: false, input: 'ignore' })
    expect(result.exitCode).toBe(0)
    expect(existsSync(marker)).toBe(true)
  })
})
