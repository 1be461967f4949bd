import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, fstatSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { heldPipe, listHolders } from '../../../src/exec/process-tree.js'
import { openRealPipes } from '../../../src/exec/output/real-pipe.js'

// Who still holds the tool's output once it has exited: what resilient stops after an interrupted run. Device and
// inode name a pipe only while it exists; a run that took a stranger's file for its own SIGKILLed other runs' tools
// (two resilient runs side by side: one pip run killed an unrelated `npm install`).

const children: ChildProcess[] = []
afterEach(() => children.splice(0).forEach(child => child.kill('SIGKILL')))

/** A process holding `fd` as its stdout, alive until killed. */
function holder(fd: number): Promise<ChildProcess> {
  const child = spawn('sleep', ['60'], { stdio: ['ignore', fd, 'ignore'] })
  children.push(child)
  return new Promise(resolve => child.once('spawn', () => resolve(child)))
}

describe.skipIf(process.platform !== 'linux')('listHolders', () => {
  it('finds a process still writing to a pipe that resilient reads', async () => {
    const [pipe] = openRealPipes(['from-child'])
    const child = await holder(pipe!.child)
    closeSync(pipe!.child)
    const output = heldPipe(fstatSync(pipe!.ours))
    expect(output.stillOurs()).toBe(true)
    expect(listHolders([output])).toEqual([child.pid])
    closeSync(pipe!.ours)
  })

  it('looks for no one once resilient has let its end go: the numbers may name someone else\'s file by then', async () => {
    const [pipe] = openRealPipes(['from-child'])
    await holder(pipe!.child)
    closeSync(pipe!.child)
    const output = heldPipe(fstatSync(pipe!.ours))
    closeSync(pipe!.ours)
    expect(output.stillOurs()).toBe(false)
    // The sleeping process holds a file with these very numbers; with resilient's end closed, that proves nothing.
    expect(listHolders([output])).toEqual([])
  })
})
