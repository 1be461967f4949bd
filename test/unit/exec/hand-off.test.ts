import { closeSync, mkdtempSync, openSync, readFileSync, writeSync } from 'node:fs'
import { Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { forwardOutput } from '../../../src/exec/output/forward-output.js'
import { readWhatIsThere } from '../../../src/exec/output/hand-off.js'
import { openRealPipes } from '../../../src/exec/output/real-pipe.js'
import { waitFor } from '../../helpers/process-helpers.js'

// What a helper the tool left running still writes, once the tool has exited (src/exec/output/hand-off.ts).

/** A pipe as run-child makes it, with resilient's end non-blocking as libuv leaves it (a socket over it does that). */
function pipe(): { ours: number; writer: number; close(): void } {
  const [made] = openRealPipes(['from-child'])
  // The socket sets O_NONBLOCK on resilient's end, as forwardOutput's does (it reads nothing while the test runs
  // synchronously); destroying it closes that end.
  const socket = new Socket({ fd: made!.ours, readable: true, writable: false }).pause()
  return { ours: made!.ours, writer: made!.child, close: () => socket.destroy() }
}

describe('readWhatIsThere', () => {
  it('reads what the pipe holds without waiting, and tells an open pipe from one whose writers are gone', () => {
    const { ours, writer, close } = pipe()
    writeSync(writer, 'last lines\n')
    const open = readWhatIsThere(ours, 1024 * 1024)
    expect(Buffer.concat(open.chunks).toString()).toBe('last lines\n')
    expect(open.ended).toBe(false)
    closeSync(writer)
    expect(readWhatIsThere(ours, 1024 * 1024)).toEqual({ chunks: [], ended: true })
    close()
  })
})

describe('forwardOutput, handed off', () => {
  it('writes on what the pipe held, then a cat of its own carries what is written later, after resilient let go', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'resilient-hand-off-'))
    const file = join(dir, 'out')
    const target = openSync(file, 'w')
    const [made] = openRealPipes(['from-child'])
    let release = () => {}
    const when = new Promise<void>(resolve => { release = resolve })
    const seen: string[] = []
    const ended = forwardOutput(made!.ours, target, { onChunk: chunk => seen.push(chunk.toString()), handOff: { when, env: process.env } })
    writeSync(made!.child, 'tool-done\n')
    await waitFor(() => seen.length > 0, 'the first line to be read')
    release()
    expect(await ended).toBe('handed-off')
    // The helper, still holding the pipe, writes after resilient's copy has ended; then it exits.
    writeSync(made!.child, 'late-from-helper\n')
    closeSync(made!.child)
    await waitFor(() => readFileSync(file, 'utf8').includes('late-from-helper'), 'cat to write the late line')
    closeSync(target)
    expect(readFileSync(file, 'utf8')).toBe('tool-done\nlate-from-helper\n')
    expect(seen.join('')).toBe('tool-done\n')
  })

  it('ends as usual when the pipe reaches its end while being handed off', async () => {
    const [made] = openRealPipes(['from-child'])
    const target = openSync('/dev/null', 'w')
    writeSync(made!.child, 'bye\n')
    closeSync(made!.child)
    const seen: string[] = []
    const ended = await forwardOutput(made!.ours, target, { onChunk: chunk => seen.push(chunk.toString()), handOff: { when: Promise.resolve(), env: process.env } })
    closeSync(target)
    expect(ended).toBe('end')
    expect(seen.join('')).toBe('bye\n')
  })
})
