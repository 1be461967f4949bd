import { mkdtempSync, openSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { closeAll, openRealPipes } from '../../../src/exec/output/real-pipe.js'
import { isPipeOrSocket } from '../../../src/files/stream-descriptor.js'

describe('isPipeOrSocket', () => {
  it('is true for both ends of a pipe, false for a regular file, /dev/null and a closed descriptor', () => {
    const [pipe] = openRealPipes(['from-child'])
    expect([isPipeOrSocket(pipe!.child), isPipeOrSocket(pipe!.ours)]).toEqual([true, true])
    closeAll([pipe!.child, pipe!.ours])
    const file = openSync(join(mkdtempSync(join(tmpdir(), 'resilient-fd-')), 'f'), 'w')
    const devNull = openSync('/dev/null', 'r')
    expect([isPipeOrSocket(file), isPipeOrSocket(devNull)]).toEqual([false, false])
    closeAll([file, devNull])
    expect(isPipeOrSocket(file)).toBe(false)
  })
})
